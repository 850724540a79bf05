package dev.leasecron.app.ops;

import dev.leasecron.app.scheduler.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The scheduler's meters, as Prometheus shows them:
 *
 * <ul>
 *   <li>{@code leasecron_rounds_total{job,outcome}}: rounds ended, by {@link Outcome};
 *   <li>{@code leasecron_fire_delay_seconds}: histogram of how late this replica's rounds were
 *       claimed, by the database clock, after their instants;
 *   <li>{@code leasecron_claims_total{result}}: this replica's claims {@code won} or {@code refused};
 *   <li>{@code leasecron_lease_renew_failures_total{job}}, {@code leasecron_lease_losses_total{job}};
 *   <li>{@code leasecron_instants_skipped_total{job}}, {@code leasecron_instants_superseded_total{job}},
 *       {@code leasecron_instants_missed_total{job}}, {@code leasecron_instants_suspended_total{job}},
 *       {@code leasecron_reruns_total{job}};
 *   <li>{@code leasecron_jobs_loaded}: jobs in the config in force;
 *   <li>{@code leasecron_config_last_reload_successful}: 1 while the jobs file's contents are the
 *       config in force, 0 after an edit was rejected (the replica runs the last good config, and
 *       stays ready: see the README); {@code leasecron_config_last_reload_success_timestamp_seconds}:
 *       when the config in force was loaded, in Unix seconds; {@code leasecron_config_reloads_total{result}}:
 *       edits {@code applied} or {@code rejected}. Named as Prometheus and Alertmanager name theirs.
 * </ul>
 *
 * <p>Tags are the job's name and small fixed sets, never an instant, and only counters of what an
 * operator alerts on per job carry the job's name: a job's rounds by outcome, its instants not run,
 * its leases lost. The fire delay and the claims are the replica's: a histogram per job is fifteen
 * series a job (with 10,000 jobs a scrape was 8 MB, and 0.4 MB without), and a job's own delays are
 * in its history and its round logs. Safe to use from any thread.
 */
public final class SchedulerMetrics {
    /** Bucket bounds of the fire delay: from "on time" to "the claim had to wait for retries". */
    private static final Duration[] FIRE_DELAY_BUCKETS = {
        Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500), Duration.ofSeconds(5),
        Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5)
    };

    private final MeterProvider<Counter> rounds;
    private final Timer fireDelay;
    private final Counter claimsWon;
    private final Counter claimsRefused;
    private final MeterProvider<Counter> renewFailures;
    private final MeterProvider<Counter> leaseLosses;
    private final MeterProvider<Counter> instantsSkipped;
    private final MeterProvider<Counter> instantsSuperseded;
    private final MeterProvider<Counter> instantsMissed;
    private final MeterProvider<Counter> instantsSuspended;
    private final MeterProvider<Counter> reruns;
    private final Counter historyWriteFailures;
    private final Counter historyPurged;
    private final AtomicInteger jobsLoaded = new AtomicInteger();
    private final MeterProvider<Counter> configReloads;
    private final AtomicInteger configSuccessful = new AtomicInteger(1);
    private final AtomicLong configLoadedAtMillis = new AtomicLong();
    /** The meters every round counts in, per job: found by their tags once, not built and hashed per round. */
    private final Map<String, JobMeters> jobs = new ConcurrentHashMap<>();

    /**
     * One job's rounds by outcome. Each slot is filled on first use; two threads filling it at once
     * get the same meter from the registry.
     */
    private final class JobMeters {
        private final String job;
        private final AtomicReferenceArray<Meter> slots = new AtomicReferenceArray<>(Outcome.values().length);

        JobMeters(String job) {
            this.job = job;
        }

        Counter rounds(Outcome outcome) {
            return meter(outcome.ordinal(), () -> rounds.withTags("job", job, "outcome", outcome.label()));
        }

        @SuppressWarnings("unchecked")
        private <M extends Meter> M meter(int slot, Supplier<M> lookUp) {
            Meter m = slots.get(slot);
            if (m == null) {
                m = lookUp.get();
                slots.set(slot, m);
            }
            return (M) m;
        }
    }

    /** Registers the meters in {@code registry}, typically a {@code PrometheusMeterRegistry}. */
    public SchedulerMetrics(MeterRegistry registry) {
        rounds = Counter.builder("leasecron.rounds").description("Rounds ended, by outcome")
                .withRegistry(registry);
        fireDelay = Timer.builder("leasecron.fire.delay")
                .description("Time from a round's instant to its claim, by the database clock")
                .serviceLevelObjectives(FIRE_DELAY_BUCKETS)
                .register(registry);
        claimsWon = claim(registry, "won");
        claimsRefused = claim(registry, "refused");
        renewFailures = Counter.builder("leasecron.lease.renew.failures")
                .description("Lease renewals that failed").withRegistry(registry);
        leaseLosses = Counter.builder("leasecron.lease.losses")
                .description("Leases lost while a round ran").withRegistry(registry);
        instantsSkipped = Counter.builder("leasecron.instants.skipped")
                .description("Instants not run because a round overran them").withRegistry(registry);
        instantsSuperseded = Counter.builder("leasecron.instants.superseded")
                .description("Instants not run because a later instant took their slot").withRegistry(registry);
        instantsMissed = Counter.builder("leasecron.instants.missed")
                .description("Instants that ran on no replica and never will").withRegistry(registry);
        instantsSuspended = Counter.builder("leasecron.instants.suspended")
                .description("Instants not run because an operator suspended the job").withRegistry(registry);
        reruns = Counter.builder("leasecron.reruns")
                .description("Rounds rerun after a round was cut short").withRegistry(registry);
        historyWriteFailures = Counter.builder("leasecron.history.write.failures")
                .description("Statements writing the round history that failed (the rounds were unaffected)")
                .register(registry);
        historyPurged = Counter.builder("leasecron.history.purged")
                .description("Rows of the round history purged by age or beyond the per-job cap").register(registry);
        Gauge.builder("leasecron.jobs.loaded", jobsLoaded, AtomicInteger::get)
                .description("Jobs in the config in force").register(registry);
        configReloads = Counter.builder("leasecron.config.reloads")
                .description("Edits of the jobs file applied or rejected").withRegistry(registry);
        Gauge.builder("leasecron.config.last.reload.successful", configSuccessful, AtomicInteger::get)
                .description("1 while the jobs file's contents are in force, 0 after an edit was rejected")
                .register(registry);
        Gauge.builder("leasecron.config.last.reload.success.timestamp", configLoadedAtMillis, millis -> millis.get() / 1000.0)
                .description("When the config in force was loaded, in Unix seconds").baseUnit("seconds")
                .register(registry);
    }

    private static Counter claim(MeterRegistry registry, String result) {
        return Counter.builder("leasecron.claims").description("Claims of an instant, won or refused")
                .tag("result", result).register(registry);
    }

    /** A statement writing the round history failed. */
    public void historyWriteFailed() {
        historyWriteFailures.increment();
    }

    /** {@code rows} rows of the round history were purged. */
    public void historyPurged(long rows) {
        historyPurged.increment(rows);
    }

    /** A round of {@code job} ended with {@code outcome}. */
    public void roundEnded(String job, Outcome outcome) {
        jobs.computeIfAbsent(job, JobMeters::new).rounds(outcome).increment();
    }

    /**
     * A round was claimed {@code delay} after its instant (claim time minus instant, both by the
     * database clock). A negative delay, which only clock arithmetic can produce, counts as zero.
     */
    public void fireDelay(Duration delay) {
        fireDelay.record(delay.isNegative() ? Duration.ZERO : delay);
    }

    /** A claim of an instant was won ({@code true}) or refused. */
    public void claim(boolean won) {
        (won ? claimsWon : claimsRefused).increment();
    }

    /** A renewal of {@code job}'s lease failed. */
    public void leaseRenewFailed(String job) {
        renewFailures.withTags("job", job).increment();
    }

    /** {@code job}'s lease was lost. */
    public void leaseLost(String job) {
        leaseLosses.withTags("job", job).increment();
    }

    /** {@code count} instants of {@code job} were skipped because a round overran them. */
    public void instantsSkipped(String job, long count) {
        instantsSkipped.withTags("job", job).increment(nonNegative(count));
    }

    /** {@code count} instants of {@code job} ran on no replica and never will. */
    public void instantsMissed(String job, long count) {
        instantsMissed.withTags("job", job).increment(nonNegative(count));
    }

    /** {@code count} instants of {@code job} were left alone because an operator suspended it. */
    public void instantsSuspended(String job, long count) {
        instantsSuspended.withTags("job", job).increment(nonNegative(count));
    }

    private static long nonNegative(long count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
        return count;
    }

    /** An instant of {@code job} was superseded by a later one before it ran. */
    public void instantSuperseded(String job) {
        instantsSuperseded.withTags("job", job).increment();
    }

    /** A rerun of {@code job} started. */
    public void rerunStarted(String job) {
        reruns.withTags("job", job).increment();
    }

    /** The jobs file was loaded at {@code at}, at start or by an applied edit; its contents are in force. */
    public void configLoaded(Instant at) {
        configLoadedAtMillis.set(at.toEpochMilli());
        configSuccessful.set(1);
    }

    /** An edit of the jobs file was applied at {@code at}. */
    public void configApplied(Instant at) {
        configReloads.withTags("result", "applied").increment();
        configLoaded(at);
    }

    /** An edit of the jobs file was rejected: the config in force stays, and is no longer the file's. */
    public void configRejected() {
        configReloads.withTags("result", "rejected").increment();
        configSuccessful.set(0);
    }

    /** The jobs file holds the config in force again, after a rejected edit. */
    public void configRestored() {
        configSuccessful.set(1);
    }

    /** The config in force has {@code count} jobs. */
    public void jobsLoaded(int count) {
        jobsLoaded.set(count);
    }
}
