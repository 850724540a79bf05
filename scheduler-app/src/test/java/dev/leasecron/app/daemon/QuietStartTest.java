package dev.leasecron.app.daemon;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A daemon that starts on a supported database and runs a round says nothing at WARN or above: a
 * warning at every start (jOOQ's check of the database's version against its dialect's) would teach
 * operators to ignore warnings. Started as a JVM of its own, since jOOQ says it once per process.
 */
class QuietStartTest {

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aStartAndARoundLogNothingAtWarnOrAbove(TestDatabase db, @TempDir Path directory) throws Exception {
        String job = uniqueName("quiet").replace(':', '-');
        Path config = Files.writeString(directory.resolve("jobs.yaml"), """
                database:
                  url: "%s"
                  username: "%s"
                  password: "%s"
                http:
                  port: %d
                jobs:
                  # Every 5 s, not every second: a cold JVM's first round on a busy machine may take
                  # over a second, and its overrun would be a true WARN, not the noise this test hunts.
                  - name: %s
                    schedule: "*/5 * * * * *"
                    type: shell
                    params: {command: "true"}
                """.formatted(db.url(), db.user() == null ? "" : db.user(), db.password() == null ? "" : db.password(),
                freePort(), job));
        Path out = directory.resolve("daemon.out");
        Process daemon = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "dev.leasecron.app.cli.Main",
                "run", "--config", config.toString())
                .directory(directory.toFile())
                .redirectOutput(out.toFile()).redirectError(directory.resolve("daemon.err").toFile())
                .start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> !daemon.isAlive()
                    || Files.readAllLines(out).stream().anyMatch(l -> l.contains("\"event\":\"round.end\"")));
            assertTrue(daemon.isAlive(), () -> "the daemon stopped: " + read(out) + read(directory.resolve("daemon.err")));
        } finally {
            daemon.destroy(); // SIGTERM: a clean shutdown
            daemon.waitFor(20, TimeUnit.SECONDS);
            daemon.destroyForcibly();
        }
        List<String> loud = Files.readAllLines(out).stream()
                .filter(l -> l.contains("\"level\":\"WARN\"") || l.contains("\"level\":\"ERROR\"")).toList();
        assertEquals(List.of(), loud, "nothing at WARN or above from a start on " + db);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
