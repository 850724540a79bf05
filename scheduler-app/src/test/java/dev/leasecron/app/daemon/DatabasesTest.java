package dev.leasecron.app.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.leasecron.config.DataSourceSpec;
import dev.leasecron.config.DatabaseSpec;
import dev.leasecron.config.Secret;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run} opens a relative SQLite file beside the jobs file, as {@code status} reads it. */
class DatabasesTest {

    @Test
    void aRelativeSqliteFileOfTheJobsFileIsOpenedBesideIt(@TempDir Path folder) {
        DataSourceSpec relative = new DataSourceSpec("jdbc:sqlite:leases.db", Optional.empty(), Secret.none());
        DatabaseSpec spec = new DatabaseSpec(false, relative, 1,
                Map.of("reports", new DataSourceSpec("jdbc:sqlite:reports.db", Optional.empty(), Secret.none())));

        try (Databases databases = Databases.open(spec, folder)) {
            assertEquals("jdbc:sqlite:" + folder.resolve("leases.db") + "?journal_mode=WAL&busy_timeout=5000",
                    databases.primary().getJdbcUrl());
            assertEquals("jdbc:sqlite:" + folder.resolve("reports.db") + "?journal_mode=WAL&busy_timeout=5000",
                    databases.others().get("reports").getJdbcUrl());
        }
    }

    @Test
    void theEmbeddedDefaultStaysInTheWorkingDirectory(@TempDir Path folder) {
        assertEquals(DatabaseSpec.embeddedDefault().primary(), Databases.located(DatabaseSpec.embeddedDefault(),
                DatabaseSpec.embeddedDefault().primary(), folder));
    }
}
