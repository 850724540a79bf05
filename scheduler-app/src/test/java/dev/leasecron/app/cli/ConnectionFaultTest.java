package dev.leasecron.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.app.db.Pools;
import dev.leasecron.app.plugins.HttpJob;
import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.ShellJob;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A database that cannot be reached is reported with the driver's reason (authentication failed,
 * connection refused, no such database or folder), in one line, without a stack trace: by
 * {@code status} on stderr, and by {@code run} in the message it logs while it waits.
 */
class ConnectionFaultTest {
    private record Run(int status, String out, String err) {}

    @Test
    void statusSaysTheConnectionWasRefused(@TempDir Path directory) throws Exception {
        int port = closedPort();
        Path file = jobsFile(directory, "jdbc:postgresql://127.0.0.1:" + port + "/leasecron", "", "");

        Run run = run("status", "--config", file.toString());

        assertOneLine(run, "database jdbc:postgresql://127.0.0.1:" + port + "/leasecron: cannot reach the primary"
                + " database: Connection to 127.0.0.1:" + port + " refused");
    }

    @Test
    void statusSaysThePasswordWasRefused(@TempDir Path directory) throws Exception {
        TestDatabase mariadb = TestDatabases.of("mariadb");
        Path file = jobsFile(directory, mariadb.url(), mariadb.user(), "not-" + mariadb.password());

        Run run = run("status", "--config", file.toString());

        assertOneLine(run, "cannot reach the primary database: ");
        assertTrue(run.err().contains("Access denied for user"), run.err());
        assertFalse(run.err().contains("not-" + mariadb.password()), run.err());
    }

    @Test
    void statusSaysTheDatabaseDoesNotExist(@TempDir Path directory) throws Exception {
        TestDatabase postgres = TestDatabases.of("postgres");
        String url = postgres.url().replaceFirst("/[^/?]+(\\?|$)", "/leasecron_absent$1");
        Path file = jobsFile(directory, url, postgres.user(), postgres.password());

        Run run = run("status", "--config", file.toString());

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
    void runRefusesToStartWhenTheSqliteFolderIsMissing(@TempDir Path directory) throws Exception {
        Path folder = directory.resolve("no-such-folder");
        Path file = jobsFile(directory, "jdbc:sqlite:" + folder.resolve("leases.db"), null, null);

        Run run = run("run", "--config", file.toString());

        assertOneLine(run, "cannot open the database at jdbc:sqlite:" + folder.resolve("leases.db") + ": the folder "
                + folder + " does not exist");
    }

    private static void assertOneLine(Run run, String expectedStart) {
        assertEquals(1, run.status());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith(expectedStart) || run.err().contains(expectedStart), run.err());
        for (String printed : List.of(run.out(), run.err())) {
            assertFalse(printed.contains("\tat ") || printed.contains("Exception"), printed);
        }
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine(
                new CliContext(Map.of(), Clock.systemUTC(), folder -> JobRegistry.of(new ShellJob(), new HttpJob())));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return new Run(commandLine.execute(args), out.toString(), err.toString());
    }

    private static Path jobsFile(Path directory, String url, String user, String password) throws IOException {
        StringBuilder yaml = new StringBuilder("database:\n  url: \"" + url + "\"\n");
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
