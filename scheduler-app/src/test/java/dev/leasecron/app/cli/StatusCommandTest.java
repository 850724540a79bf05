package dev.leasecron.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.app.db.Pools;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code status} only reads: it says plainly when nothing is there yet rather than creating it,
 * finds a relative SQLite file beside the jobs file whatever the working directory, and shows the
 * sound jobs of a file with a mistake in another.
 */
class StatusCommandTest {
    private static CommandRun run(String... args) {
        return CommandRun.of(Clock.systemUTC(), args);
    }

    private static Path jobsFile(Path directory, String url, String jobs) throws Exception {
        return Files.writeString(directory.resolve("jobs.yaml"), """
                database:
                  url: %s
                jobs:
                %s""".formatted(url, jobs));
    }

    private static final String TWO_JOBS = """
              - name: nightly
                schedule: "@daily"
                type: shell
                params: {command: "true"}
              - name: hourly
                schedule: "@hourly"
                type: shell
                params: {command: "true"}
            """;

    @Test
    void aMissingSqliteFileIsReportedAndNotCreated(@TempDir Path directory) throws Exception {
        Path file = jobsFile(directory, "jdbc:sqlite:leases.db", TWO_JOBS);

        CommandRun run = run("status", "--config", file.toString());

        Path database = directory.resolve("leases.db").toAbsolutePath();
        assertEquals(0, run.status(), run.err());
        assertEquals(List.of("database jdbc:sqlite:" + database + ": nothing there yet: no file " + database
                + " (leasecron run creates it)"), run.out().lines().toList());
        assertEquals("", run.err());
        assertFalse(Files.exists(database), "status created " + database);
    }

    @Test
    void aDatabaseWithoutTheLeaseTableIsReportedAndLeftWithout(@TempDir Path directory) throws Exception {
        Path database = directory.resolve("other.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE unrelated (id INTEGER)");
        }
        Path file = jobsFile(directory, "jdbc:sqlite:" + database, TWO_JOBS);

        CommandRun run = run("status", "--config", file.toString());

        assertEquals(0, run.status(), run.err());
        assertEquals(List.of("database jdbc:sqlite:" + database + ": nothing there yet: no lease table"
                + " (leasecron run creates it)"), run.out().lines().toList());
        assertEquals(List.of("unrelated"), tables(database));
    }

    @Test
    void aRelativeSqliteFileIsFoundBesideTheJobsFileWhateverTheWorkingDirectory(@TempDir Path directory)
            throws Exception {
        Path database = directory.resolve("leases.db").toAbsolutePath();
        String instance = claimOnce(database, "cron:nightly");
        Path file = jobsFile(directory, "jdbc:sqlite:leases.db", TWO_JOBS);
        assertFalse(directory.toAbsolutePath().equals(Path.of("").toAbsolutePath()), "the test runs elsewhere");

        CommandRun run = run("status", "--config", file.toString());

        assertEquals(0, run.status(), run.err());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.getFirst().startsWith("database jdbc:sqlite:" + database + ", clock "), run.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("nightly ") && l.contains(instance) && l.contains(" 1 ")),
                run.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("hourly ") && l.contains("never ran")), run.out());
        assertFalse(Files.exists(Path.of("leases.db")), "status created a database in the working directory");
    }

    @Test
    void aMistakeInOneJobHidesOnlyThatJob(@TempDir Path directory) throws Exception {
        Path database = directory.resolve("leases.db").toAbsolutePath();
        claimOnce(database, "cron:nightly");
        Path file = jobsFile(directory, "jdbc:sqlite:" + database, TWO_JOBS.replace("\"@hourly\"", "\"61 * * * *\""));

        CommandRun run = run("status", "--config", file.toString());

        assertEquals(1, run.status());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith(file + ":9:"), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals(3, lines.size(), run.out());
        assertTrue(lines.get(2).startsWith("nightly "), run.out());
    }

    /** Claims {@code name} once on a new SQLite file, as a daemon's first round would; the claimer's instance. */
    private static String claimOnce(Path database, String name) {
        try (HikariDataSource pool = Pools.open("test", "jdbc:sqlite:" + database, null, null, 1)) {
            Leases leases = Leases.create(pool, LeaseTimings.DEFAULT, "replica-a", LeaseListener.NONE);
            leases.initialize();
            leases.claim(name).orElseThrow();
            return leases.instance();
        }
    }

    private static List<String> tables(Path database) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database);
                ResultSet r = c.createStatement().executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            List<String> names = new java.util.ArrayList<>();
            while (r.next()) {
                names.add(r.getString(1));
            }
            return names;
        }
    }
}
