package dev.leasecron.app.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.leasecron.app.plugins.HttpJob;
import dev.leasecron.app.testing.TestJobContext;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobTypeChecker;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The README's first command, {@code java -jar leasecron.jar run --config examples/jobs.yaml}, as a
 * new user runs it: on the embedded SQLite default in an empty working directory, JSON round logs
 * within seconds, and exit 0 on SIGTERM.
 */
class ExampleRunIT {
    /** The example's {@code http.port}. */
    private static final int EXAMPLE_PORT = 8080;

    @RegisterExtension
    final Replicas replicas = new Replicas();

    @Test
    void exampleJobsRunOnEmbeddedSqliteAndStopOnSigterm() {
        Path example = ReplicaProcess.moduleDir().resolve("../examples/jobs.yaml").normalize();
        assertTrue(Files.isRegularFile(example), example + " exists");
        assumePortFree();

        ReplicaProcess daemon = replicas.startCommand("example", Map.of(), List.of(),
                List.of("run", "--config", example.toString()));

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> !daemon.events("round.end", "heartbeat").isEmpty() || !daemon.isAlive());
        JsonNode start = daemon.events("round.start", "heartbeat").getFirst();
        JsonNode end = daemon.events("round.end", "heartbeat").getFirst();
        assertEquals("ok", end.path("outcome").asText(), "heartbeat round: " + end);
        JsonNode started = daemon.events("daemon.started").getFirst();
        assertEquals("sqlite", started.path("database").asText());
        assertEquals(250, started.path("settings").path("put_off_ms").asLong(), "the scheduler's settings, once: " + started);
        assertTrue(Files.isRegularFile(replicas.dir().resolve("leasecron.db")), "the embedded default ./leasecron.db");
        long sinceStart = Duration.between(ReplicaProcess.timestamp(daemon.entries().getFirst()),
                ReplicaProcess.timestamp(end)).toMillis();

        daemon.term();
        assertEquals(0, daemon.awaitExit(Duration.ofSeconds(60)), "exit code after SIGTERM");
        assertEquals(1, daemon.events("daemon.stopped").size(), "daemon.stopped logged");
        System.out.printf("%s: first heartbeat round %s (term %d) ended %d ms after the first log line; exit 0 on SIGTERM%n",
                getClass().getSimpleName(), start.path("instant").asText(), start.path("term").asLong(), sinceStart);
        // The heartbeat runs every 5 s; the rest is a cold JVM on a possibly loaded machine.
        assertTrue(sinceStart <= 20_000, "a round within 20 s: " + sinceStart + " ms");
    }

    /**
     * The example's {@code http} job, as written, succeeds against the daemon the example starts: the
     * job's own instant is 07:30 on weekdays, so the test sends the round's request itself, with the
     * params the daemon read from the file.
     */
    @Test
    void exampleHttpJobSucceedsAgainstItsOwnDaemon() throws Exception {
        Path example = ReplicaProcess.moduleDir().resolve("../examples/jobs.yaml").normalize();
        int port = ReplicaProcess.freePort();
        Map<String, String> env = Map.of("LEASECRON_HTTP_PORT", Integer.toString(port));
        ReplicaProcess daemon = replicas.startCommand("example-http", env, List.of(),
                List.of("run", "--config", example.toString()));
        HttpClient client = HttpClient.newHttpClient();
        URI readyz = URI.create("http://127.0.0.1:" + port + "/readyz");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> !daemon.isAlive() || client.send(HttpRequest.newBuilder(readyz).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        assertTrue(daemon.isAlive(), "the example daemon runs: " + daemon.tail(20));

        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.putAll(env);
        JobSpec digest = new ConfigLoader(environment, JobTypeChecker.acceptAny()).load(example)
                .job("morning-digest").orElseThrow();
        assertEquals("http", digest.type());
        TestJobContext context = new TestJobContext(digest.name(), digest.params()).timeout(digest.timeout());

        new HttpJob().run(context);

        assertTrue(context.log().messages().stream().anyMatch(m -> m.contains("answered 200")), context.log().messages().toString());
    }

    /** The example listens on 8080: on a shared machine another process may hold it; CI must have it free. */
    private static void assumePortFree() {
        try (ServerSocket probe = new ServerSocket(EXAMPLE_PORT)) {
            probe.setReuseAddress(true);
        } catch (IOException e) {
            String why = "port " + EXAMPLE_PORT + " of examples/jobs.yaml is in use: " + e.getMessage();
            if (Boolean.parseBoolean(System.getenv("LEASECRON_TEST_REQUIRE_SERVERS"))) {
                throw new IllegalStateException(why);
            }
            Assumptions.abort(why);
        }
    }
}
