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

    static Databases open(DatabaseSpec spec) {
        HikariDataSource primary = open("primary", spec.primary(), spec.poolMaxSize());
        Map<String, HikariDataSource> others = new LinkedHashMap<>();
        spec.instances().forEach((name, source) -> others.put(name, open(name, source, spec.poolMaxSize())));
        return new Databases(primary, Pools.sharedByLeasesAndWork(primary), Map.copyOf(others));
    }

    private static HikariDataSource open(String name, DataSourceSpec source, int maxSize) {
        return Pools.open(name, source.url(), source.username().orElse(null), source.password().reveal(), maxSize);
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
