package dev.leasecron.app.web.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.leasecron.app.control.ActionRefusedException;
import dev.leasecron.app.ops.HealthCheck;
import dev.leasecron.app.ops.OpsServer;
import dev.leasecron.app.testing.LogLines;
import dev.leasecron.app.web.Dashboard;
import dev.leasecron.app.web.ReadModel;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.config.Secret;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin API's routes on the ops port, beside the dashboard, acting through a recording fake of
 * the controls: who may act (401 without a bearer token, 403 with another, 404 for every action when
 * no token is configured), what is refused before anything is done (405 for GET, 413 for a large body,
 * 415 and 400 for bodies it does not understand, 404 naming an unknown job), what an accepted action
 * answers, and that the token shows in no answer and no log line.
 */
class AdminRoutesTest {
    private static final String TOKEN = "s3cret-admin-token-0f1e2d3c4b5a6978";
    private static final List<String> ACTIONS = List.of("runs", "suspend", "resume");

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final ObjectMapper json = new ObjectMapper();
    private final RecordingControls controls = new RecordingControls(Set.of("backup", "a/b"));
    private final List<HttpResponse<String>> answers = new ArrayList<>();
    private TestDatabase database;
    private List<JobSpec> jobs;
    private Leases leases;
    private OpsServer server;
    private LogLines logs;

    @BeforeEach
    void start(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("jobs.yaml"), """
                jobs:
                  - {name: backup, schedule: "@daily", type: shell, params: {command: "true"}}
                  - {name: "a/b", schedule: "@daily", type: shell, params: {command: "true"}}
                """);
        jobs = new ConfigLoader(Map.of(), JobTypeChecker.acceptAny()).load(file).jobs();
        database = TestDatabases.of("sqlite");
        leases = Leases.named(database.pool(2), LeaseTimings.DEFAULT, "replica-a", LeaseListener.NONE);
        leases.initialize();
        logs = LogLines.capture();
        serve(Optional.of(TOKEN), controls);
    }

    @AfterEach
    void stop() {
        server.close();
        client.close();
        database.close();
        logs.close();
    }

    private void serve(Optional<String> token, JobControlPort port) {
        if (server != null) {
            server.close();
        }
        AdminApi admin = new AdminApi(token.flatMap(t -> AdminToken.of(Secret.of(t))), port);
        server = OpsServer.start(Optional.of("127.0.0.1"), 0, HealthCheck.ALWAYS_UP, HealthCheck.ALWAYS_UP,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                new Dashboard(new ReadModel(() -> jobs, leases, Clock.systemUTC()), admin.enabled()).andThen(admin));
    }

    @Test
    void withoutAConfiguredTokenTheActionsDoNotExist() throws Exception {
        serve(Optional.empty(), controls);

        for (String action : ACTIONS) {
            HttpResponse<String> answer = post("/api/v1/jobs/backup/" + action, "Bearer " + TOKEN, "{}");
            assertEquals(404, answer.statusCode(), action + ": " + answer.body());
            assertEquals("not found", json.readTree(answer.body()).path("error").asText());
            assertEquals(404, get("/api/v1/jobs/backup/" + action).statusCode(), "nor is a GET of it a 405");
        }
        assertFalse(get("/jobs/backup").body().contains("id=\"actions\""), "no buttons without a token");
        assertEquals(List.of(), controls.changes());
    }

    @Test
    void aRequestWithoutABearerTokenIs401WithAChallenge() throws Exception {
        for (String authorization : new String[] {null, "", "Basic YWRtaW46" + TOKEN, "Bearer", "Bearer   ", TOKEN}) {
            for (String action : ACTIONS) {
                HttpResponse<String> answer = post("/api/v1/jobs/backup/" + action, authorization, "{}");
                assertEquals(401, answer.statusCode(), authorization + " " + action + ": " + answer.body());
                assertTrue(answer.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Bearer"));
                assertEquals("unauthorized", json.readTree(answer.body()).path("error").asText());
            }
        }
        assertEquals(List.of(), controls.changes());
    }

    @Test
    void anotherTokenIs403() throws Exception {
        for (String wrong : List.of("Bearer x" + TOKEN.substring(1), "Bearer " + TOKEN + "x",
                "Bearer " + TOKEN.substring(0, TOKEN.length() - 1), "Bearer " + TOKEN.toUpperCase())) {
            for (String action : ACTIONS) {
                HttpResponse<String> answer = post("/api/v1/jobs/backup/" + action, wrong, "{}");
                assertEquals(403, answer.statusCode(), wrong + " " + action + ": " + answer.body());
                assertEquals("forbidden", json.readTree(answer.body()).path("error").asText());
            }
        }
        assertEquals(List.of(), controls.changes());
        assertTrue(logs.lines().stream().anyMatch(l -> l.contains("\"event\":\"admin.refused\"") && l.contains("\"status\":403")),
                "a wrong token is logged: " + logs.lines());
    }

    @Test
    void theTokenIsComparedExactlyEvenAfterTheRightOneOnTheSameConnection() throws Exception {
        assertEquals(200, post("/api/v1/jobs/backup/resume", "Bearer " + TOKEN, "").statusCode());

        HttpResponse<String> upper = post("/api/v1/jobs/backup/resume", "Bearer " + TOKEN.toUpperCase(), "");

        assertEquals(403, upper.statusCode(), "Jetty's header cache must not fold the case: " + upper.body());
        assertEquals(List.of("resume backup admin"), controls.changes());
    }

    @Test
    void theBearerSchemeIsCaseInsensitive() throws Exception {
        assertEquals(200, post("/api/v1/jobs/backup/resume", "bearer " + TOKEN, "").statusCode());
        assertEquals(List.of("resume backup admin"), controls.changes());
    }

    @Test
    void aGetOrHeadOfAnActionIs405AndChangesNothing() throws Exception {
        for (String action : ACTIONS) {
            HttpResponse<String> answer = get("/api/v1/jobs/backup/" + action);
            assertEquals(405, answer.statusCode(), action + ": " + answer.body());
            assertEquals("POST", answer.headers().firstValue("Allow").orElseThrow());
            HttpResponse<String> head = client.send(request("/api/v1/jobs/backup/" + action)
                    .header("Authorization", "Bearer " + TOKEN).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(405, head.statusCode());
        }
        assertEquals(404, get("/api/v1/runs/nothing-here").statusCode());
        assertEquals(List.of(), controls.changes());
    }

    @Test
    void otherMethodsAndPathsStayReadOnly() throws Exception {
        HttpResponse<String> job = post("/api/v1/jobs/backup", "Bearer " + TOKEN, "{}");
        assertEquals(405, job.statusCode(), job.body());
        assertEquals("GET, HEAD", job.headers().firstValue("Allow").orElseThrow());
        assertEquals(405, post("/jobs/backup", "Bearer " + TOKEN, "{}").statusCode());
        assertEquals(405, post("/api/v1/runs/x", "Bearer " + TOKEN, "{}").statusCode());
        HttpResponse<String> put = client.send(request("/api/v1/jobs/backup/runs").header("Authorization", "Bearer " + TOKEN)
                .PUT(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, put.statusCode());
        assertEquals(List.of(), controls.changes());
    }

    @Test
    void aBodyOverTheBoundIs413WhetherItsLengthIsAnnouncedOrNot() throws Exception {
        String big = "{\"reason\": \"" + "x".repeat(OpsServer.MAX_BODY_BYTES) + "\"}";

        HttpResponse<String> announced = post("/api/v1/jobs/backup/suspend", "Bearer " + TOKEN, big);
        assertEquals(413, announced.statusCode(), announced.body());
        assertEquals("content too large", json.readTree(announced.body()).path("error").asText());

        HttpResponse<String> chunked = client.send(request("/api/v1/jobs/backup/suspend")
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes()))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(413, chunked.statusCode(), chunked.body());
        assertEquals(List.of(), controls.changes());
    }

    @Test
    void bodiesItDoesNotUnderstandAreRefused() throws Exception {
        String bearer = "Bearer " + TOKEN;
        assertEquals(415, client.send(request("/api/v1/jobs/backup/suspend").header("Authorization", bearer)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("reason=x")).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode(), "a cross-site form's encoding");
        assertEquals(400, post("/api/v1/jobs/backup/suspend", bearer, "{\"reasn\": \"typo\"}").statusCode());
        assertEquals(400, post("/api/v1/jobs/backup/suspend", bearer, "[\"reason\"]").statusCode());
        assertEquals(400, post("/api/v1/jobs/backup/suspend", bearer, "{\"reason\": 42}").statusCode());
        assertEquals(400, post("/api/v1/jobs/backup/suspend", bearer, "{\"reason\": \"a\\nb\"}").statusCode());
        assertEquals(400, post("/api/v1/jobs/backup/suspend", bearer, "{not json").statusCode());
        assertEquals(400, post("/api/v1/jobs/backup/runs", bearer, "{\"requestId\": \"a b\"}").statusCode());
        assertEquals(400, post("/api/v1/jobs/backup/runs", bearer, "{\"requestId\": \"" + "r".repeat(65) + "\"}").statusCode());
        HttpResponse<String> differ = client.send(request("/api/v1/jobs/backup/runs").header("Authorization", bearer)
                .header("Content-Type", "application/json").header("Idempotency-Key", "one")
                .POST(HttpRequest.BodyPublishers.ofString("{\"requestId\": \"two\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, differ.statusCode(), differ.body());
        assertEquals(List.of(), controls.changes());
    }

    @Test
    void anUnknownJobIs404NamingIt() throws Exception {
        for (String action : ACTIONS) {
            HttpResponse<String> answer = post("/api/v1/jobs/nope/" + action, "Bearer " + TOKEN, "");
            assertEquals(404, answer.statusCode(), answer.body());
            JsonNode error = json.readTree(answer.body());
            assertEquals("unknown job", error.path("error").asText());
            assertEquals("nope", error.path("job").asText());
        }
        assertEquals(List.of(), controls.changes());
    }

    @Test
    void runNowIs202WithTheRequestAndWhereToFollowIt() throws Exception {
        HttpResponse<String> answer = client.send(request("/api/v1/jobs/backup/runs")
                .header("Authorization", "Bearer " + TOKEN).header("Idempotency-Key", "deploy-42")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(202, answer.statusCode(), answer.body());
        assertEquals("application/json", answer.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("/api/v1/runs/deploy-42", answer.headers().firstValue("Location").orElseThrow());
        JsonNode run = json.readTree(answer.body());
        assertEquals("deploy-42", run.path("id").asText());
        assertEquals("backup", run.path("job").asText());
        assertEquals("pending", run.path("state").asText());
        assertEquals("admin", run.path("requested_by").asText());
        assertTrue(run.path("outcome").isNull() && run.path("instance").isNull(), run.toString());

        HttpResponse<String> followed = get("/api/v1/runs/deploy-42");
        assertEquals(200, followed.statusCode());
        assertEquals("pending", json.readTree(followed.body()).path("state").asText());

        assertEquals(202, post("/api/v1/jobs/a/b/runs", "Bearer " + TOKEN, "{\"requestId\": \"r-2\"}").statusCode());
        HttpResponse<String> fresh = post("/api/v1/jobs/backup/runs", "Bearer " + TOKEN, "");
        String id = json.readTree(fresh.body()).path("id").asText();
        assertTrue(id.matches("[0-9a-f-]{36}"), "a random UUID: " + id);
        assertEquals(List.of("trigger backup deploy-42 admin", "trigger a/b r-2 admin", "trigger backup " + id + " admin"),
                controls.changes());
    }

    @Test
    void aRequestIdUsedForAnotherJobIs409() throws Exception {
        post("/api/v1/jobs/backup/runs", "Bearer " + TOKEN, "{\"requestId\": \"same\"}");

        HttpResponse<String> again = post("/api/v1/jobs/a/b/runs", "Bearer " + TOKEN, "{\"requestId\": \"same\"}");

        assertEquals(409, again.statusCode(), again.body());
        assertTrue(json.readTree(again.body()).path("detail").asText().contains("backup"), again.body());
    }

    @Test
    void suspendAndResumeActAsTheAdminWithTheReason() throws Exception {
        HttpResponse<String> suspended = post("/api/v1/jobs/backup/suspend", "Bearer " + TOKEN,
                "{\"reason\": \"  disk full  \"}");
        HttpResponse<String> resumed = post("/api/v1/jobs/backup/resume", "Bearer " + TOKEN, "");

        assertEquals(200, suspended.statusCode(), suspended.body());
        JsonNode s = json.readTree(suspended.body());
        assertEquals("backup", s.path("job").asText());
        assertTrue(s.path("suspended").asBoolean() && s.path("changed").asBoolean(), s.toString());
        JsonNode r = json.readTree(resumed.body());
        assertFalse(r.path("suspended").asBoolean() || r.path("changed").asBoolean(), r.toString());
        assertEquals(List.of("suspend backup admin disk full", "resume backup admin"), controls.changes());
    }

    @Test
    void aJobThatCannotBeActedOnIs409WithTheReason() throws Exception {
        serve(Optional.of(TOKEN), new RecordingControls(Set.of("backup")) {
            @Override
            public RunRequest trigger(String job, String requestId, String requester) {
                throw new ActionRefusedException("job '" + job + "' runs on every replica: it has no cluster-wide run");
            }
        });

        HttpResponse<String> answer = post("/api/v1/jobs/backup/runs", "Bearer " + TOKEN, "");

        assertEquals(409, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("runs on every replica"), answer.body());
    }

    @Test
    void theJobsJsonHasASuspendedFieldAndThePageTheButtons() throws Exception {
        JsonNode job = json.readTree(get("/api/v1/jobs/backup").body());
        assertTrue(job.has("suspended"), job.toString());
        JsonNode all = json.readTree(get("/api/v1/jobs").body());
        assertTrue(all.path("jobs").get(0).has("suspended"), all.toString());

        String page = get("/jobs/backup").body();
        assertTrue(page.contains("id=\"actions\""), page);
        assertTrue(page.contains("data-api=\"/api/v1/jobs/backup\""), page);
        assertFalse(page.contains("<script>"), "no inline script: " + page);
    }

    @Test
    void theTokenIsInNoAnswerAndNoLogLine() throws Exception {
        String bearer = "Bearer " + TOKEN;
        post("/api/v1/jobs/backup/runs", bearer, "");
        post("/api/v1/jobs/backup/suspend", bearer, "{\"reason\": \"r\"}");
        post("/api/v1/jobs/nope/runs", bearer, "");
        post("/api/v1/jobs/backup/suspend", bearer, "{\"bad\": 1}");
        post("/api/v1/jobs/backup/suspend", bearer, "x".repeat(OpsServer.MAX_BODY_BYTES + 1));
        post("/api/v1/jobs/backup/runs", "Bearer " + TOKEN + "-wrong", "");
        post("/api/v1/jobs/backup/runs", "Basic " + TOKEN, "");
        get("/api/v1/jobs/backup/runs");
        get("/jobs/backup");
        get("/api/v1/jobs");

        for (HttpResponse<String> answer : answers) {
            assertFalse(answer.body().contains(TOKEN), answer.uri() + ": " + answer.body());
            assertFalse(answer.headers().map().toString().contains(TOKEN), answer.uri() + ": " + answer.headers());
        }
        assertFalse(logs.lines().isEmpty(), "the refusals are logged");
        for (String line : logs.lines()) {
            assertFalse(line.contains(TOKEN), line);
        }
    }

    private HttpResponse<String> post(String path, String authorization, String body) throws IOException, InterruptedException {
        HttpRequest.Builder builder = request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        return send(builder.build());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(request(path).build());
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> answer = client.send(request, HttpResponse.BodyHandlers.ofString());
        answers.add(answer);
        return answer;
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    }
}
