package dev.leasecron.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A primary database leasecron cannot run on is a mistake in the file: validate and run both report
 * it at database.url, exit 1, and print no stack trace and no password.
 */
class DatabaseUrlCommandTest {
    private static CommandRun run(String... args) {
        return CommandRun.of(Clock.systemUTC(), args);
    }

    private static Path file(Path directory, String url) throws Exception {
        return Files.writeString(directory.resolve("jobs.yaml"), """
                database:
                  url: %s
                jobs:
                  - name: nightly
                    schedule: "@daily"
                    type: shell
                    params: {command: "true"}
                """.formatted(url));
    }

    @ParameterizedTest
    @ValueSource(strings = {"validate", "run"})
    void anUnsupportedDatabaseIsAnErrorAtItsUrl(String command, @TempDir Path directory) throws Exception {
        Path file = file(directory, "jdbc:h2:mem:leasecron;USER=sa;PASSWORD=s3cret");

        CommandRun run = run(command, "--config", file.toString());

        assertEquals(1, run.status());
        assertEquals(List.of(file + ":2:8: database.url: unsupported database \"h2\": leasecron runs on PostgreSQL"
                + " (jdbc:postgresql:), MySQL (jdbc:mysql:), MariaDB (jdbc:mariadb:) or SQLite (jdbc:sqlite:); on"
                + " ClickHouse (jdbc:clickhouse:) only jobs of scope: replica"), run.err().lines().toList());
        assertClean(run);
    }

    @ParameterizedTest
    @ValueSource(strings = {"validate", "run"})
    void clickHouseWithAClusterWideJobIsAnErrorAtItsUrl(String command, @TempDir Path directory) throws Exception {
        Path file = file(directory, "jdbc:clickhouse://reader:s3cret@clickhouse:8123/default");

        CommandRun run = run(command, "--config", file.toString());

        assertEquals(1, run.status());
        assertEquals(List.of(file + ":2:8: database.url: ClickHouse cannot carry leases, which cluster-wide jobs run"
                + " under: job \"nightly\" (line 4) is cluster-wide (scope: cluster is the default); give every job"
                + " scope: replica, or use PostgreSQL, MySQL/MariaDB or SQLite"), run.err().lines().toList());
        assertClean(run);
    }

    private static void assertClean(CommandRun run) {
        for (String printed : List.of(run.out(), run.err())) {
            assertFalse(printed.contains("\tat ") || printed.contains("Exception"), printed);
            assertFalse(printed.contains("s3cret"), printed);
        }
    }
}
