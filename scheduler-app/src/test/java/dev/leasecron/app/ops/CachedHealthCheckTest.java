package dev.leasecron.app.ops;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code /readyz} answers within a probe's timeout however long the check takes: from the last
 * result, refreshed in the background, and down once that result is too old.
 */
class CachedHealthCheckTest {
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    @Test
    void aProbeIsAnsweredAtOnceWhileTheCheckHangs() throws Exception {
        CountDownLatch outage = new CountDownLatch(1);
        AtomicReference<Health> answer = new AtomicReference<>(Health.up());
        HealthCheck database = () -> {
            Health health = answer.get();
            if (!health.passed()) {
                outage.await(); // a connection attempt that waits out the pool's timeout, and more
            }
            return health;
        };
        try (CachedHealthCheck readiness = CachedHealthCheck.start(database, Duration.ofMillis(50), Duration.ofSeconds(30));
                OpsServer server = OpsServer.start(0, HealthCheck.ALWAYS_UP, readiness,
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
                HttpClient client = HttpClient.newHttpClient()) {
            await().atMost(Duration.ofSeconds(5)).until(() -> readyz(client, server).statusCode() == 200);

            answer.set(Health.down("database unreachable"));
            // Each probe answers within the timeout, from the last result, while the check hangs.
            for (int i = 0; i < 5; i++) {
                assertEquals(200, readyz(client, server).statusCode());
            }
            outage.countDown();
            await().atMost(Duration.ofSeconds(5)).until(() -> readyz(client, server).statusCode() == 503);
            assertEquals("down: database unreachable\n", readyz(client, server).body());
        }
    }

    @Test
    void aResultOlderThanTheLimitIsDownSayingSince() {
        AtomicLong now = new AtomicLong();
        CountDownLatch hung = new CountDownLatch(1);
        AtomicReference<Boolean> first = new AtomicReference<>(true);
        HealthCheck check = () -> {
            if (!first.getAndSet(false)) {
                hung.await();
            }
            return Health.up();
        };
        try (CachedHealthCheck readiness = CachedHealthCheck.start(check, Duration.ofMillis(10), Duration.ofSeconds(9),
                now::get)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> readiness.check().passed());

            now.addAndGet(Duration.ofSeconds(12).toNanos());

            Health health = readiness.check();
            assertEquals(false, health.passed());
            assertTrue(health.reason().startsWith("the check has not finished for 12 s (last: up)"), health.reason());
        } finally {
            hung.countDown();
        }
    }

    @Test
    void beforeTheFirstResultTheAnswerIsNotCheckedYet() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        try (CachedHealthCheck readiness = CachedHealthCheck.start(() -> {
            never.await();
            return Health.up();
        }, Duration.ofMillis(10), Duration.ofSeconds(9))) {
            assertEquals(Health.down("not checked yet"), readiness.check());
        }
    }

    private static HttpResponse<String> readyz(HttpClient client, OpsServer server) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/readyz"))
                .timeout(PROBE_TIMEOUT).build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
