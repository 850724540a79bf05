package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import dev.leasecron.lease.testing.TestTimings;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Available and initialize: whether the primary database can carry leases, learned once at start-up. */
class AvailableTest {

    /** A database whose driver calls it ClickHouse, and that answers nothing else. */
    private static DataSource clickHouse() {
        DatabaseMetaData meta = fake(DatabaseMetaData.class, "getDatabaseProductName", "ClickHouse");
        Connection connection = fake(Connection.class, "getMetaData", meta);
        return fake(DataSource.class, "getConnection", connection);
    }

    private static <T> T fake(Class<T> type, String method, Object answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, m, args) -> {
            if (m.getName().equals(method)) {
                return answer;
            }
            if (m.getName().equals("close")) {
                return null;
            }
            throw new UnsupportedOperationException("a ClickHouse stand-in does not answer " + m.getName());
        }));
    }

    @Test
    void availableBeforeInitializeIsAnError() {
        try (TestDatabase db = TestDatabases.of("sqlite")) {
            Leases leases = Leases.create(db.pool(1), TestTimings.FAST, "test", LeaseListener.NONE);
            assertThrows(IllegalStateException.class, leases::available);
        }
    }

    @Test
    void clickHouseIsRefusedByInitializeAndThenByAvailable() {
        Leases leases = Leases.create(clickHouse(), TestTimings.FAST, "test", LeaseListener.NONE);

        UnsupportedDatabaseException atInit = assertThrows(UnsupportedDatabaseException.class, leases::initialize);
        UnsupportedDatabaseException atCheck = assertThrows(UnsupportedDatabaseException.class, leases::available);

        assertSame(atInit, atCheck);
        assertTrue(atInit.getMessage().contains("ClickHouse"), atInit.getMessage());
        assertTrue(atInit.getMessage().contains("PostgreSQL") && atInit.getMessage().contains("MySQL")
                && atInit.getMessage().contains("SQLite"), "says what would do: " + atInit.getMessage());
        assertThrows(UnsupportedDatabaseException.class, () -> leases.claim(uniqueName("clickhouse")),
                "a claim fails, and with it whatever asked for the lease");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void availableOnceInitialized(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        leases.available();
        assertTrue(leases.ready());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void initializeCreatesTheTableOnceFromManyReplicasAtOnceAndAgainChangesNothing(TestDatabase db) throws Exception {
        try (Namespace fresh = Namespace.create(db)) {
            // Each replica with a pool of its own, all creating the missing table at the same moment.
            int replicas = 6;
            CountDownLatch go = new CountDownLatch(1);
            List<Leases> leases = new ArrayList<>();
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (int i = 0; i < replicas; i++) {
                Leases l = Leases.create(fresh.pool(), TestTimings.FAST, "test", LeaseListener.NONE);
                leases.add(l);
                CompletableFuture<Void> f = new CompletableFuture<>();
                Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                        l.initialize();
                        f.complete(null);
                    } catch (Throwable t) {
                        f.completeExceptionally(t);
                    }
                });
                done.add(f);
            }
            go.countDown();
            for (CompletableFuture<Void> f : done) {
                f.get();
            }

            String name = uniqueName("init");
            Handle h = leases.getFirst().claim(name).orElseThrow();
            leases.getLast().initialize();
            leases.forEach(Leases::available);
            assertEquals(h.holder(), ClaimTest.row(leases.getLast(), name).holder(), "initializing again kept the rows");
            assertTrue(leases.get(1).claim(name).isEmpty());
        }
    }

    /**
     * A schema of the test's own where {@code gst_leases} does not exist yet: a PostgreSQL schema, a
     * MariaDB database (the test user may create {@code test_*} ones) or a SQLite file.
     */
    private record Namespace(TestDatabase db, String name, List<HikariDataSource> pools) implements AutoCloseable {
        static Namespace create(TestDatabase db) throws Exception {
            String name = "test_lc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
            switch (db.kind()) {
                case "postgres" -> db.execute("CREATE SCHEMA " + name);
                case "mariadb" -> db.execute("CREATE DATABASE " + name);
                default -> { }
            }
            return new Namespace(db, db.isSqlite() ? Files.createTempFile(name, ".db").toString() : name, new ArrayList<>());
        }

        synchronized HikariDataSource pool() {
            HikariConfig c = new HikariConfig();
            c.setMaximumPoolSize(1);
            switch (db.kind()) {
                case "postgres" -> c.setSchema(name);
                case "mariadb" -> c.setCatalog(name);
                default -> { }
            }
            c.setJdbcUrl(db.isSqlite() ? "jdbc:sqlite:" + name + "?busy_timeout=10000" : db.url());
            if (db.user() != null) c.setUsername(db.user());
            if (db.password() != null) c.setPassword(db.password());
            HikariDataSource pool = new HikariDataSource(c);
            pools.add(pool);
            return pool;
        }

        @Override
        public void close() throws Exception {
            pools.forEach(HikariDataSource::close);
            switch (db.kind()) {
                case "postgres" -> db.execute("DROP SCHEMA " + name + " CASCADE");
                case "mariadb" -> db.execute("DROP DATABASE " + name);
                default -> Files.deleteIfExists(java.nio.file.Path.of(name));
            }
        }
    }
}
