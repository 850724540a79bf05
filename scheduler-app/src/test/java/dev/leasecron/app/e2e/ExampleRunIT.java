package dev.leasecron.app.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
