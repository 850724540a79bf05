package dev.leasecron.app.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqliteFilesTest {
    private static final Path FOLDER = Path.of("/etc/leasecron");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "jdbc:sqlite:leases.db                      | jdbc:sqlite:/etc/leasecron/leases.db",
        "jdbc:sqlite:data/leases.db?busy_timeout=1  | jdbc:sqlite:/etc/leasecron/data/leases.db?busy_timeout=1",
        "jdbc:sqlite:../state/leases.db             | jdbc:sqlite:/etc/state/leases.db",
        "jdbc:sqlite:/var/lib/leasecron/leases.db   | jdbc:sqlite:/var/lib/leasecron/leases.db",
        "jdbc:sqlite::memory:                       | jdbc:sqlite::memory:",
        "jdbc:sqlite:                               | jdbc:sqlite:",
        "jdbc:sqlite:file:leases.db?mode=ro         | jdbc:sqlite:file:leases.db?mode=ro",
        "jdbc:postgresql://db:5432/leases           | jdbc:postgresql://db:5432/leases"})
    void aRelativeFileIsResolvedAgainstTheJobsFilesFolder(String url, String resolved) {
        assertEquals(resolved, SqliteFiles.resolve(url, FOLDER));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "jdbc:sqlite:leases.db?journal_mode=WAL | leases.db",
        "jdbc:sqlite:/tmp/x.db                  | /tmp/x.db"})
    void theFileOfAUrl(String url, String file) {
        assertEquals(Optional.of(Path.of(file)), SqliteFiles.file(url));
    }
}
