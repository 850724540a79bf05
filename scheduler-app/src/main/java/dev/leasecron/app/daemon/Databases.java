package dev.leasecron.app.daemon;

import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.app.db.Pools;
import dev.leasecron.app.db.SqliteFiles;
import dev.leasecron.config.DataSourceSpec;
import dev.leasecron.config.DatabaseSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The pools of the configured databases: the primary, which holds the leases, and the named others.
 *
 * @param shared the primary as the leases and the transaction guard both use it: one wrapper, so that
 *     on SQLite they take turns on its one connection (see {@link Pools#sharedByLeasesAndWork})
 */
record Databases(HikariDataSource primary, DataSource shared, Map<String, HikariDataSource> others) implements AutoCloseable {

    /**
     * Opens a pool per database; nothing is read from them yet. A relative SQLite file written in the
     * jobs file is taken relative to {@code configFolder} ({@link SqliteFiles}).
     *
     * @throws StartRefusedException a pool cannot be set up: no JDBC driver here takes its URL, or the
     *     folder of an SQLite file does not exist
     */
    static Databases open(DatabaseSpec spec, Path configFolder) {
        HikariDataSource primary = open("primary", located(spec, spec.primary(), configFolder), spec.poolMaxSize());
        Map<String, HikariDataSource> others = new LinkedHashMap<>();
        try {
            spec.instances().forEach((name, source) ->
                    others.put(name, open(name, located(spec, source, configFolder), spec.poolMaxSize())));
        } catch (StartRefusedException e) {
            others.values().forEach(HikariDataSource::close);
            primary.close();
            throw e;
        }
        return new Databases(primary, Pools.sharedByLeasesAndWork(primary), Map.copyOf(others));
    }

    /** {@code source} with its SQLite file, if relative, found beside the jobs file; the embedded default as it is. */
    static DataSourceSpec located(DatabaseSpec spec, DataSourceSpec source, Path configFolder) {
        if (spec.embedded()) {
            return source;
        }
        return new DataSourceSpec(SqliteFiles.resolve(source.url(), configFolder), source.username(), source.password());
    }

    private static HikariDataSource open(String name, DataSourceSpec source, int maxSize) {
        // SQLite would only say "unable to open database file", at every retry; the folder is a mistake
        // in the file, not an outage to wait out.
        SqliteFiles.file(source.url()).map(file -> file.toAbsolutePath().getParent())
                .filter(folder -> !Files.isDirectory(folder))
                .ifPresent(folder -> {
                    throw new StartRefusedException(cannotOpen(name, source) + "the folder " + folder
                            + " does not exist", null);
                });
        try {
            return Pools.open(name, source.url(), source.username().orElse(null), source.password().reveal(), maxSize);
        } catch (RuntimeException e) {
            String what = cannotOpen(name, source);
            if (String.valueOf(e.getMessage()).startsWith("Failed to get driver instance")) {
                throw new StartRefusedException(what + "no JDBC driver here takes the URL (leasecron bundles the"
                        + " PostgreSQL, MariaDB, MySQL and SQLite drivers; another goes on the class path)", null);
            }
            // Hikari's messages carry the URL as written, password and all: only the masked one is printed.
            throw new StartRefusedException(what + String.valueOf(e.getMessage()).replace(source.url(), source.maskedUrl()), null);
        }
    }

    private static String cannotOpen(String name, DataSourceSpec source) {
        return "cannot open the database " + (name.equals("primary") ? "" : "\"" + name + "\" ") + "at "
                + source.maskedUrl() + ": ";
    }

    /** The other databases as plain data sources, for the transaction guard. */
    Map<String, javax.sql.DataSource> othersAsDataSources() {
        return Map.copyOf(others);
    }

    @Override
    public void close() {
        others.values().forEach(HikariDataSource::close);
        primary.close();
    }
}
