package dev.leasecron.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.app.daemon.Daemon;
import dev.leasecron.app.db.Pools;
import dev.leasecron.app.plugins.HttpJob;
import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.ShellJob;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import dev.leasecron.app.testing.DaemonThread;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * A database that cannot be reached is reported with the driver's reason (authentication failed,
 * connection refused, no such database or folder), in one line, without a stack trace: by
 * {@code status} on stderr, and by {@code run} in the message it logs while it waits. A refusal that
 * retrying cannot fix (credentials, no such database) stops {@code run} at start with one line and
 * status 1; a database that does not answer is waited for.
 */
class ConnectionFaultTest {
    @Test
    void statusSaysTheConnectionWasRefused(@TempDir Path directory) throws Exception {
        int port = closedPort();
        Path file = jobsFile(directory, "jdbc:postgresql://127.0.0.1:" + port + "/leasecron", "", "");

        CommandRun run = run("status", "--config", file.toString());

        assertOneLine(run, "database jdbc:postgresql://127.0.0.1:" + port + "/leasecron: cannot reach the primary"
                + " database: Connection to 127.0.0.1:" + port + " refused");
    }

    @Test
    void statusSaysThePasswordWasRefused(@TempDir Path directory) throws Exception {
        TestDatabase mariadb = TestDatabases.of("mariadb");
        Path file = jobsFile(directory, mariadb.url(), mariadb.user(), "not-" + mariadb.password());

        CommandRun run = run("status", "--config", file.toString());

        assertOneLine(run, "cannot reach the primary database: ");
        assertTrue(run.err().contains("Access denied for user"), run.err());
        assertFalse(run.err().contains("not-" + mariadb.password()), run.err());
    }

    @Test
    void statusSaysTheDatabaseDoesNotExist(@TempDir Path directory) throws Exception {
        TestDatabase postgres = TestDatabases.of("postgres");
        String url = postgres.url().replaceFirst("/[^/?]+(\\?|$)", "/leasecron_absent$1");
        Path file = jobsFile(directory, url, postgres.user(), postgres.password());

        CommandRun run = run("status", "--config", file.toString());

        assertOneLine(run, "cannot reach the primary database: ");
        assertTrue(run.err().contains("database \"leasecron_absent\" does not exist"), run.err());
    }

    @Test
    void runLogsThatTheConnectionWasRefused() {
        int port = closedPort();
        try (HikariDataSource pool = Pools.open("primary", "jdbc:postgresql://127.0.0.1:" + port + "/leasecron", null, null, 1)) {
            Leases leases = Leases.create(pool, LeaseTimings.DEFAULT, "replica", LeaseListener.NONE);

            // What the daemon logs in database.unavailable while it waits for the database.
            LeaseDatabaseException failure = assertThrows(LeaseDatabaseException.class, leases::initialize);

            assertTrue(failure.getMessage().startsWith("cannot reach the primary database: Connection to 127.0.0.1:"
                    + port + " refused"), failure.getMessage());
        }
    }

    @Test
    void runStopsWhenThePasswordIsRefused(@TempDir Path directory) throws Exception {
        TestDatabase mariadb = TestDatabases.of("mariadb");
        Path file = jobsFile(directory, mariadb.url(), mariadb.user(), "not-" + mariadb.password());

        CommandRun run = runUntilItEnds("run", "--config", file.toString());

        assertRefused(run, mariadb.url(), "Access denied for user");
        assertFalse(run.err().contains("not-" + mariadb.password()), run.err());
    }

    @Test
    void runStopsWhenTheUserIsUnknown(@TempDir Path directory) throws Exception {
        TestDatabase postgres = TestDatabases.of("postgres");
        Path file = jobsFile(directory, postgres.url(), "leasecron_nobody", "secret");

        CommandRun run = runUntilItEnds("run", "--config", file.toString());

        assertRefused(run, postgres.url(), "role \"leasecron_nobody\" does not exist");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "mariadb"})
    void runStopsWhenTheDatabaseDoesNotExist(String kind, @TempDir Path directory) throws Exception {
        TestDatabase db = TestDatabases.of(kind);
        // test_*: a name the MariaDB user may see, so that the server says unknown database, not access denied.
        String url = db.url().replaceFirst("/[^/?]+(\\?|$)", "/test_absent$1");
        Path file = jobsFile(directory, url, db.user(), db.password());

        CommandRun run = runUntilItEnds("run", "--config", file.toString());

        assertRefused(run, url, kind.equals("postgres") ? "database \"test_absent\" does not exist"
                : "Unknown database 'test_absent'");
    }

    /** A database that refuses connections may start after the daemon: the daemon waits for it. */
    @Test
    void runWaitsForADatabaseThatRefusesConnections(@TempDir Path directory) throws Exception {
        int port = closedPort();
        Path file = jobsFile(directory, "jdbc:postgresql://127.0.0.1:" + port + "/leasecron", "", "");
        ConfigLoader loader = new ConfigLoader(Map.of(), JobTypeChecker.acceptAny());
        Daemon daemon = new Daemon(loader.load(file), file, loader, JobRegistry.of(new ShellJob(), new HttpJob()),
                LeaseTimings.DEFAULT);
        Logger log = (Logger) LoggerFactory.getLogger("leasecron.daemon");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        log.addAppender(logged);
        try {
            CompletableFuture<Void> running = DaemonThread.start(daemon);

            await().atMost(Duration.ofSeconds(30)).until(() -> running.isDone() || unavailable(logged) >= 2);
            assertFalse(running.isDone(), () -> "the daemon gave up: " + running);

            daemon.stop();
            running.get(30, TimeUnit.SECONDS);
        } finally {
            daemon.stop();
            log.detachAppender(logged);
        }
    }

    private static long unavailable(ListAppender<ILoggingEvent> logged) {
        return List.copyOf(logged.list).stream().filter(e -> e.getMessage().startsWith("database.unavailable")).count();
    }

    @Test
    void runRefusesToStartWhenTheSqliteFolderIsMissing(@TempDir Path directory) throws Exception {
        Path folder = directory.resolve("no-such-folder");
        Path file = jobsFile(directory, "jdbc:sqlite:" + folder.resolve("leases.db"), null, null);

        CommandRun run = run("run", "--config", file.toString());

        assertOneLine(run, "cannot open the database at jdbc:sqlite:" + folder.resolve("leases.db") + ": the folder "
                + folder + " does not exist");
    }

    private static void assertOneLine(CommandRun run, String expectedStart) {
        assertEquals(1, run.status());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith(expectedStart) || run.err().contains(expectedStart), run.err());
        for (String printed : List.of(run.out(), run.err())) {
            assertFalse(printed.contains("\tat ") || printed.contains("Exception"), printed);
        }
    }

    private static void assertRefused(CommandRun run, String url, String driverSays) {
        assertOneLine(run, "the primary database at " + url + " refused this replica: ");
        assertTrue(run.err().contains(driverSays), run.err());
        assertTrue(run.err().contains("retrying cannot fix that"), run.err());
    }

    /** {@link #run}, failing instead of hanging when the command does not end by itself. */
    private static CommandRun runUntilItEnds(String... args) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> run(args), "the command did not end");
    }

    private static CommandRun run(String... args) {
        return CommandRun.of(Clock.systemUTC(), args);
    }

    private static Path jobsFile(Path directory, String url, String user, String password) throws IOException {
        StringBuilder yaml = new StringBuilder("http:\n  port: " + closedPort() + "\ndatabase:\n  url: \"" + url + "\"\n");
        if (user != null && !user.isEmpty()) {
            yaml.append("  username: \"").append(user).append("\"\n");
        }
        if (password != null && !password.isEmpty()) {
            yaml.append("  password: \"").append(password).append("\"\n");
        }
        yaml.append("""
                jobs:
                  - name: nightly
                    schedule: "@daily"
                    type: shell
                    params: {command: "true"}
                """);
        return Files.writeString(directory.resolve("jobs.yaml"), yaml);
    }

    /** A loopback port nothing listens on: one just freed. */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
