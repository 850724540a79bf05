package dev.leasecron.app.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.leasecron.app.ops.HealthCheck;
import dev.leasecron.app.ops.OpsServer;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import dev.leasecron.lease.testing.TestDatabase;
import java.util.UUID;

/**
 * The dashboard's routes on a real lease table (SQLite, PostgreSQL, MariaDB): pages and JSON for the jobs of the config in
 * force, 404 for an unknown job as a page and as JSON, 405 for anything but GET and HEAD, the
 * security headers, and a page that still answers when a read fails.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
class DashboardRoutesTest {
    private static final String XSS = "<script>alert(1)</script>";
    /** Job names no other test uses: the servers' lease tables are shared. */
    private final String backup = "backup-" + UUID.randomUUID().toString().substring(0, 8);
    private final String nightly = XSS + "/nightly-" + UUID.randomUUID().toString().substring(0, 8);
    @Parameter
    TestDatabase database;
    private final HttpClient client = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final AtomicReference<List<JobSpec>> jobs = new AtomicReference<>();
    private final AtomicBoolean down = new AtomicBoolean();
    private Leases leases;
    private OpsServer server;

    @BeforeEach
    void start(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("jobs.yaml"), """
                jobs:
                  - name: %s
                    schedule: "*/5 * * * * *"
                    type: shell
                    params: {command: "true"}
                  - name: "%s"
                    schedule: "0 3 * * *"
                    timeZone: Europe/Berlin
                    type: shell
                    params: {command: "true"}
                """.formatted(backup, nightly));
        jobs.set(new ConfigLoader(Map.of(), JobTypeChecker.acceptAny()).load(file).jobs());
        DataSource pool = database.pool(2);
        DataSource blinking = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (down.get() && method.getName().equals("getConnection")) {
                        throw new SQLException("connection refused (the test's database is down)");
                    }
                    try {
                        return method.invoke(pool, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        leases = Leases.named(blinking, LeaseTimings.DEFAULT, "replica-a", LeaseListener.NONE);
        leases.initialize();
        server = OpsServer.start(Optional.of("127.0.0.1"), 0, HealthCheck.ALWAYS_UP, HealthCheck.ALWAYS_UP,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                new Dashboard(new ReadModel(jobs::get, leases, Clock.systemUTC())));
    }

    @AfterEach
    void stop() {
        server.close();
        client.close();
        database.close();
    }

    @Test
    void jobsPageListsTheJobsWithTheirSchedulesInWordsAndHolders() throws Exception {
        leases.claim("cron:" + backup).orElseThrow();

        HttpResponse<String> page = get("/");

        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
        String html = page.body();
        assertTrue(html.contains("every 5 seconds"), html);
        assertTrue(html.contains("at 03:00"), html);
        assertTrue(html.contains("Europe/Berlin"), html);
        assertTrue(html.contains("replica-a"), "the holder: " + html);
        assertFalse(html.contains(XSS), html);
        assertTrue(html.contains(nightly.replace("<", "&lt;").replace(">", "&gt;")), html);
    }

    @Test
    void everyAnswerForbidsForeignScriptsAndSniffing() throws Exception {
        for (String path : List.of("/", "/replicas", "/jobs/" + backup, "/api/v1/jobs", "/static/dashboard.css")) {
            HttpResponse<String> answer = get(path);
            assertEquals(200, answer.statusCode(), path);
            String csp = answer.headers().firstValue("Content-Security-Policy").orElseThrow();
            assertTrue(csp.contains("script-src 'self'") && csp.contains("default-src 'none'"), csp);
            assertEquals("nosniff", answer.headers().firstValue("X-Content-Type-Options").orElseThrow(), path);
        }
    }

    @Test
    void aJobWhoseNameHoldsASlashHasItsPage() throws Exception {
        HttpResponse<String> page = get(Texts.jobPath(nightly));

        assertEquals(200, page.statusCode(), page.body());
        assertTrue(page.body().contains("<h1 class=\"job-title\">" + nightly.replace("<", "&lt;").replace(">", "&gt;") + "</h1>"),
                page.body());
    }

    @Test
    void anUnknownJobIs404AsAPageAndAsJson() throws Exception {
        HttpResponse<String> page = get("/jobs/nope");
        assertEquals(404, page.statusCode());
        assertTrue(page.body().contains("No such job"), page.body());

        HttpResponse<String> api = get("/api/v1/jobs/nope/rounds");
        assertEquals(404, api.statusCode());
        assertEquals("application/json", api.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("unknown job", json.readTree(api.body()).path("error").asText());
        assertEquals("nope", json.readTree(api.body()).path("job").asText());

        assertEquals(404, get("/api/v1/nothing").statusCode());
        assertEquals(404, get("/static/../logback.xml").statusCode());
    }

    @Test
    void onlyGetAndHeadAreServed() throws Exception {
        for (String path : List.of("/", "/jobs/" + backup, "/api/v1/jobs")) {
            HttpResponse<String> post = client.send(HttpRequest.newBuilder(uri(path))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode(), path);
            assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
        }
        HttpResponse<String> head = client.send(HttpRequest.newBuilder(uri("/"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
    }

    @Test
    void jsonApiHasAStableShape() throws Exception {
        leases.claim("cron:" + backup).orElseThrow();

        JsonNode answer = json.readTree(get("/api/v1/jobs").body());

        assertEquals("replica-a", answer.path("instance").asText());
        JsonNode first = answer.path("jobs").get(0);
        assertEquals(backup, first.path("name").asText());
        assertEquals("*/5 * * * * *", first.path("schedule").asText());
        assertEquals("every 5 seconds", first.path("schedule_in_words").asText());
        assertEquals("UTC", first.path("time_zone").asText());
        assertEquals(3, first.path("next_instants").size());
        assertTrue(first.path("next_instants").get(0).asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"),
                first.toString());
        assertEquals("replica-a", first.path("holder").path("instance").asText(), first.toString());
        assertEquals(1, first.path("holder").path("term").asLong());
        assertTrue(first.has("last_ended") && first.has("recent_rounds"), first.toString());
        assertEquals(nightly, answer.path("jobs").get(1).path("name").asText());
        assertTrue(answer.path("jobs").get(1).path("holder").isNull());

        JsonNode rounds = json.readTree(get("/api/v1/jobs/" + backup + "/rounds?outcome=failed&limit=5").body());
        assertEquals(backup, rounds.path("job").asText());
        assertEquals("failed", rounds.path("outcome").asText());
        assertEquals(5, rounds.path("limit").asInt());
        assertTrue(rounds.path("rounds").isArray());

        JsonNode replicas = json.readTree(get("/api/v1/replicas").body());
        assertEquals("replica-a", replicas.path("replicas").get(0).path("instance").asText(), replicas.toString());
        assertEquals(backup, replicas.path("replicas").get(0).path("holds").get(0).asText(), replicas.toString());
    }

    @Test
    void aReadThatFailsIsShownAndThePageStillAnswers() throws Exception {
        down.set(true);

        HttpResponse<String> page = get("/");
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("lease rows not available"), page.body());
        assertTrue(page.body().contains("every 5 seconds"), "the rest of the page: " + page.body());

        assertEquals(200, get("/replicas").statusCode());
        assertEquals(200, get("/jobs/" + backup).statusCode());
        JsonNode api = json.readTree(get("/api/v1/jobs").body());
        assertFalse(api.path("errors").isEmpty(), api.toString());
    }

    @Test
    void aReloadedConfigShowsAtOnce() throws Exception {
        jobs.set(jobs.get().subList(0, 1));

        assertEquals(404, get(Texts.jobPath(nightly)).statusCode());
        assertEquals(1, json.readTree(get("/api/v1/jobs").body()).path("jobs").size());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
