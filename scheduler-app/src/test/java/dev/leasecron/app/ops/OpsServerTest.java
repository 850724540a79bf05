package dev.leasecron.app.ops;

import dev.leasecron.app.scheduler.Outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpsServerTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final SchedulerMetrics metrics = new SchedulerMetrics(registry);
    private final AtomicReference<HealthCheck> readiness = new AtomicReference<>(() -> Health.down("starting"));
    private final HttpClient client = HttpClient.newHttpClient();
    private OpsServer server;

    @BeforeEach
    void start() {
        server = OpsServer.start(0, HealthCheck.ALWAYS_UP, () -> readiness.get().check(), registry);
    }

    @AfterEach
    void stop() {
        server.close();
        client.close();
    }

    @Test
    void healthzAnswersWhileTheProcessRuns() throws Exception {
        HttpResponse<String> response = get("/healthz");

        assertEquals(200, response.statusCode());
        assertEquals("ok\n", response.body());
    }

    @Test
    void readyzFollowsTheReadinessCheck() throws Exception {
        assertEquals(503, get("/readyz").statusCode());
        assertEquals("down: starting\n", get("/readyz").body());

        readiness.set(Health::up);
        assertEquals(200, get("/readyz").statusCode());

        readiness.set(() -> {
            throw new SQLTransientConnectionException("Connection is not available, request timed out after 1000ms");
        });
        HttpResponse<String> response = get("/readyz");
        assertEquals(503, response.statusCode());
        assertEquals("down: java.sql.SQLTransientConnectionException: Connection is not available, request timed"
                + " out after 1000ms\n", response.body());
    }

    @Test
    void metricsShowsTheSchedulerMetersInPrometheusText() throws Exception {
        metrics.roundEnded("backup", Outcome.CUT_SHORT);
        metrics.jobsLoaded(3);

        HttpResponse<String> response = get("/metrics");

        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain; version=0.0.4"));
        assertTrue(response.body().contains("leasecron_rounds_total{job=\"backup\",outcome=\"cut_short\"} 1.0"),
                response.body());
        assertTrue(response.body().contains("leasecron_jobs_loaded 3.0"), response.body());
    }

    @Test
    void otherPathsAndMethodsAreRefused() throws Exception {
        assertEquals(404, get("/healthz/extra").statusCode());
        assertEquals(404, get("/").statusCode());
        HttpResponse<String> post = client.send(
                HttpRequest.newBuilder(uri("/healthz")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
    }

    @Test
    void headGetsTheStatusWithoutABody() throws Exception {
        HttpResponse<String> head = client.send(
                HttpRequest.newBuilder(uri("/readyz")).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(503, head.statusCode());
        assertEquals("", head.body());
    }

    @Test
    void aPortInUseFailsWithAMessageNamingIt() {
        UncheckedIOException failure = assertThrows(UncheckedIOException.class,
                () -> OpsServer.start(server.port(), HealthCheck.ALWAYS_UP, HealthCheck.ALWAYS_UP, registry));

        assertTrue(failure.getMessage().startsWith("cannot serve http.port " + server.port() + ": "),
                failure.getMessage());
    }

    @Test
    void listensOnTheAddressGiven() throws Exception {
        try (OpsServer loopback = OpsServer.start(Optional.of("127.0.0.1"), 0, HealthCheck.ALWAYS_UP,
                HealthCheck.ALWAYS_UP, registry)) {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + loopback.port() + "/healthz")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertEquals(200, answer.statusCode());
        }
    }

    @Test
    void anAddressThatIsNotThisHostsFailsWithAMessageNamingIt() {
        // 192.0.2.0/24 is TEST-NET-1: never assigned to a host.
        OpsBindException failure = assertThrows(OpsBindException.class, () -> OpsServer.start(Optional.of("192.0.2.1"),
                0, HealthCheck.ALWAYS_UP, HealthCheck.ALWAYS_UP, registry));

        assertTrue(failure.getMessage().startsWith("cannot serve http.address 192.0.2.1 port 0: "), failure.getMessage());
    }

    @Test
    void closedServerNoLongerAnswers() {
        server.close();

        IOException failure = assertThrows(IOException.class, () -> get("/healthz"));
        assertTrue(failure instanceof ConnectException, failure::toString);
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
