package dev.leasecron.app.daemon;

import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.app.db.Pools;
import dev.leasecron.config.DataSourceSpec;
import dev.leasecron.config.DatabaseSpec;
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
     * Opens a pool per database; nothing is read from them yet.
     *
     * @throws StartRefusedException a pool cannot be set up: no JDBC driver here takes its URL
     */
    static Databases open(DatabaseSpec spec) {
        HikariDataSource primary = open("primary", spec.primary(), spec.poolMaxSize());
        Map<String, HikariDataSource> others = new LinkedHashMap<>();
        try {
            spec.instances().forEach((name, source) -> others.put(name, open(name, source, spec.poolMaxSize())));
        } catch (StartRefusedException e) {
            others.values().forEach(HikariDataSource::close);
            primary.close();
            throw e;
        }
        return new Databases(primary, Pools.sharedByLeasesAndWork(primary), Map.copyOf(others));
    }

    private static HikariDataSource open(String name, DataSourceSpec source, int maxSize) {
        try {
            return Pools.open(name, source.url(), source.username().orElse(null), source.password().reveal(), maxSize);
        } catch (RuntimeException e) {
            String what = "cannot open the database " + (name.equals("primary") ? "" : "\"" + name + "\" ") + "at "
                    + source.maskedUrl() + ": ";
            if (String.valueOf(e.getMessage()).startsWith("Failed to get driver instance")) {
                throw new StartRefusedException(what + "no JDBC driver here takes the URL (leasecron bundles the"
                        + " PostgreSQL, MariaDB, MySQL and SQLite drivers; another goes on the class path)", null);
            }
            // Hikari's messages carry the URL as written, password and all: only the masked one is printed.
            throw new StartRefusedException(what + String.valueOf(e.getMessage()).replace(source.url(), source.maskedUrl()), null);
        }
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
