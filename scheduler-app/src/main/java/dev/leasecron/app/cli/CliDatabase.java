package dev.leasecron.app.cli;

import dev.leasecron.app.db.SqliteFiles;
import dev.leasecron.config.DataSourceSpec;
import dev.leasecron.config.DatabaseSpec;
import java.nio.file.Path;

/** The primary database a command reads, as the daemon started from the same file would open it. */
final class CliDatabase {
    private CliDatabase() {}

    /** {@code database}'s primary, a relative SQLite file resolved against the folder of {@code configFile}. */
    static DataSourceSpec primary(DatabaseSpec database, Path configFile) {
        return database.embedded() ? database.primary() : new DataSourceSpec(
                SqliteFiles.resolve(database.primary().url(), configFile.toAbsolutePath().getParent()),
                database.primary().username(), database.primary().password());
    }
}
