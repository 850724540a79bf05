package dev.leasecron.app.ops;

import dev.leasecron.app.scheduler.Outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SchedulerMetricsTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final SchedulerMetrics metrics = new SchedulerMetrics(registry);

    @Test
    void countersAppearUnderTheirPrometheusNamesWithLowCardinalityTags() {
        metrics.roundEnded("backup", Outcome.OK);
        metrics.roundEnded("backup", Outcome.OK);
        metrics.roundEnded("backup", Outcome.TIMEOUT);
        metrics.claim(true);
        metrics.claim(false);
        metrics.leaseRenewFailed("backup");
        metrics.leaseLost("backup");
        metrics.instantsSkipped("backup", 4);
        metrics.instantsSuspended("backup", 3);
        metrics.instantSuperseded("backup");
        metrics.rerunStarted("backup");

        String text = registry.scrape();

        assertContains(text, "leasecron_rounds_total{job=\"backup\",outcome=\"ok\"} 2.0");
        assertContains(text, "leasecron_rounds_total{job=\"backup\",outcome=\"timeout\"} 1.0");
        assertContains(text, "leasecron_claims_total{result=\"won\"} 1.0");
        assertContains(text, "leasecron_claims_total{result=\"refused\"} 1.0");
        assertContains(text, "leasecron_lease_renew_failures_total{job=\"backup\"} 1.0");
        assertContains(text, "leasecron_lease_losses_total{job=\"backup\"} 1.0");
        assertContains(text, "leasecron_instants_skipped_total{job=\"backup\"} 4.0");
        assertContains(text, "leasecron_instants_suspended_total{job=\"backup\"} 3.0");
        assertContains(text, "leasecron_instants_superseded_total{job=\"backup\"} 1.0");
        assertContains(text, "leasecron_reruns_total{job=\"backup\"} 1.0");
    }

    @Test
    void theConfigMetersSayWhetherTheFileIsInForceAndSince() {
        metrics.configLoaded(Instant.parse("2026-12-06T10:00:00Z"));
        assertContains(registry.scrape(), "leasecron_config_last_reload_successful 1.0");
        assertContains(registry.scrape(), "leasecron_config_last_reload_success_timestamp_seconds 1.7965512E9");

        metrics.configRejected();
        String rejected = registry.scrape();
        assertContains(rejected, "leasecron_config_last_reload_successful 0.0");
        assertContains(rejected, "leasecron_config_reloads_total{result=\"rejected\"} 1.0");
        assertContains(rejected, "leasecron_config_last_reload_success_timestamp_seconds 1.7965512E9");

        metrics.configRestored();
        assertContains(registry.scrape(), "leasecron_config_last_reload_successful 1.0");

        metrics.configRejected();
        metrics.configApplied(Instant.parse("2026-12-06T11:00:00Z"));
        String applied = registry.scrape();
        assertContains(applied, "leasecron_config_last_reload_successful 1.0");
        assertContains(applied, "leasecron_config_reloads_total{result=\"applied\"} 1.0");
        assertContains(applied, "leasecron_config_reloads_total{result=\"rejected\"} 2.0");
        assertContains(applied, "leasecron_config_last_reload_success_timestamp_seconds 1.7965548E9");
    }

    @Test
    void fireDelayIsOneHistogramInSecondsForTheReplica() {
        metrics.fireDelay(Duration.ofMillis(30));
        metrics.fireDelay(Duration.ofSeconds(7));
        metrics.fireDelay(Duration.ofMillis(-5));

        String text = registry.scrape();

        assertContains(text, "leasecron_fire_delay_seconds_bucket{le=\"0.01\"} 1");
        assertContains(text, "leasecron_fire_delay_seconds_bucket{le=\"0.05\"} 2");
        assertContains(text, "leasecron_fire_delay_seconds_bucket{le=\"10.0\"} 3");
        assertContains(text, "leasecron_fire_delay_seconds_count 3");
        assertContains(text, "leasecron_fire_delay_seconds_sum 7.03");
    }

    @Test
    void aThousandJobsAddOnlyTheirCountersToTheScrapeNotAHistogramEach() {
        for (int i = 0; i < 1000; i++) {
            metrics.claim(true);
            metrics.fireDelay(Duration.ofMillis(20));
            metrics.roundEnded("job-" + i, Outcome.OK);
        }

        long series = registry.scrape().lines().filter(l -> l.startsWith("leasecron_") && !l.startsWith("#")).count();

        // 1,000 rounds counters, two claims counters, the histogram's 12 buckets, +Inf, count, sum and
        // max, and the meters registered up front.
        assertTrue(series < 1100, series + " series");
    }

    @Test
    void jobsLoadedGaugeShowsTheLatestCount() {
        metrics.jobsLoaded(5);
        metrics.jobsLoaded(2);

        assertContains(registry.scrape(), "leasecron_jobs_loaded 2.0");
    }

    @Test
    void negativeSkipCountIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> metrics.instantsSkipped("backup", -1));
    }

    private static void assertContains(String text, String line) {
        assertTrue(text.lines().anyMatch(l -> l.equals(line) || l.startsWith(line + " ")), () -> line + " in\n" + text);
    }
}
