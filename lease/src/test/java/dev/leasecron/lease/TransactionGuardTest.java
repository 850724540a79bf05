package dev.leasecron.lease;

import static dev.leasecron.lease.GuardedTransactions.PRIMARY;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction guard: a transaction opened under a lease verifies it before its first statement,
 * ends with the work's scope, and cannot commit once the lease is lost.
 */
class TransactionGuardTest {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionGuardTest.class);

    /** A business table of the test's own, on the primary and on the other database. */
    private final String probe = "probe_" + UUID.randomUUID().toString().replace("-", "");
    /** Another database, without a lease table: a SQLite file of this test's own. */
    private HikariDataSource other;
    private DataSource primaryPool;
    @TempDir
    Path otherDir;

    @BeforeEach
    void openOtherDatabase() throws Exception {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl("jdbc:sqlite:" + otherDir.resolve("other.db") + "?busy_timeout=10000");
        c.setMaximumPoolSize(1);
        other = new HikariDataSource(c);
        createProbe(other);
    }

    @AfterEach
    void dropProbeAndCloseOtherDatabase() throws SQLException {
        other.close();
        if (primaryPool != null) {
            try (Connection c = primaryPool.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE " + probe);
            }
        }
    }

    private void createProbe(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + probe + " (id INT)");
        }
    }

    private int probeRows(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + probe)) {
            r.next();
            return r.getInt(1);
        }
    }

    private Void insertProbe(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO " + probe + " (id) VALUES (1)");
        }
        return null;
    }

    /** The primary database of one test: its pool, leases over it, and the guard. */
    private record Primary(TestDatabase db, DataSource pool, Leases leases, GuardedTransactions tx) {}

    private Primary primary(TestDatabase db, LeaseTimings timings) throws SQLException {
        DataSource pool = db.pool(4);
        Leases leases = db.leases(timings, pool);
        createProbe(pool);
        primaryPool = pool;
        return new Primary(db, pool, leases, new GuardedTransactions(leases, pool, Map.of("other", other)));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void transactionsUnderAHeldLeaseCommitOnThePrimaryAndOnAnotherDatabase(TestDatabase db) throws Exception {
        Primary p = primary(db, TestTimings.FAST);
        Handle h = p.leases().claim(uniqueName("tx-held")).orElseThrow();

        p.leases().run(LeaseScope.root(), h, LOG, scope -> {
            p.tx().inTransaction(PRIMARY, this::insertProbe);
            return p.tx().inTransaction("other", this::insertProbe);
        });

        assertEquals(1, probeRows(p.pool()));
        assertEquals(1, probeRows(other), "the other database, which has no lease table, was verified on the primary");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void releasedBehindTheHoldersBackTheTransactionIsRefusedBeforeItsWorkRuns(TestDatabase db) throws Exception {
        Primary p = primary(db, TestTimings.FAST);
        Handle h = p.leases().claim(uniqueName("tx-released")).orElseThrow();
        db.expire(h.name());

        assertRefusedBeforeTheWorkRuns(p, h);
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void expiredWithNoOneToTakeItTheTransactionIsRefusedBeforeItsWorkRuns(TestDatabase db) throws Exception {
        Primary p = primary(db, TestTimings.EXPIRING);
        Handle h = p.leases().claim(uniqueName("tx-expired")).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> !ClaimTest.row(p.leases(), h.name()).held());

        assertRefusedBeforeTheWorkRuns(p, h);
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void takenByAnotherTheTransactionIsRefusedBeforeItsWorkRuns(TestDatabase db) throws Exception {
        Primary p = primary(db, TestTimings.FAST);
        Handle h = p.leases().claim(uniqueName("tx-taken")).orElseThrow();
        db.expire(h.name());
        db.leases(TestTimings.FAST).claim(h.name()).orElseThrow();

        assertRefusedBeforeTheWorkRuns(p, h);
    }

    /**
     * Under a handle no Hold watches, so it is never marked lost: only the guard's own check can refuse,
     * on the primary and, checked against the primary first, on the other database.
     */
    private void assertRefusedBeforeTheWorkRuns(Primary p, Handle h) throws Exception {
        AtomicBoolean invoked = new AtomicBoolean();
        p.leases().run(LeaseScope.root(), h, LOG, scope -> {
            assertFalse(h.lost());
            for (String database : new String[] {PRIMARY, "other"}) {
                assertThrows(LeaseLostException.class, () -> p.tx().inTransaction(database, c -> {
                    invoked.set(true);
                    return insertProbe(c);
                }), database);
            }
            return null;
        });
        assertFalse(invoked.get(), "not one statement of the work ran");
        assertEquals(0, probeRows(p.pool()));
        assertEquals(0, probeRows(other));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void transactionOpenWhenTheLeaseIsLostIsRolledBackAndItsCommitRefused(TestDatabase db) throws Exception {
        LeaseTimings timings = new LeaseTimings(
                Duration.ofMillis(3000), Duration.ofMillis(100), Duration.ofMillis(1500), Duration.ofMillis(500));
        Primary p = primary(db, timings);
        Handle h = p.leases().claim(uniqueName("tx-lost")).orElseThrow();
        Holding holding = p.leases().hold(h, LeaseScope.root(), LOG);
        try (LeaseFailure.Restore restore = LeaseFailure.setFail(t -> { })) {
            assertThrows(LeaseLostException.class, () -> p.leases().run(holding.scope(), h, LOG,
                    scope -> p.tx().inTransaction(PRIMARY, c -> {
                        insertProbe(c);
                        // On SQLite the transaction holds the only connection, so the renewals starve and
                        // the deadline ends the lease; elsewhere a stranger ends it behind our back.
                        if (!db.isSqlite()) {
                            db.expire(h.name());
                        }
                        awaitEnd(scope, timings.localDeadline().multipliedBy(3));
                        return null; // the work returns normally: only the guard can refuse the commit
                    })));
            assertTrue(h.lost());
            assertEquals(0, probeRows(p.pool()), "the insert was rolled back");
        } finally {
            holding.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void commitPastTheLocalDeadlineIsRefusedBeforeAnyRenewalThreadSaysSo(TestDatabase db) throws Exception {
        // A process resumed after a pause runs its work before its renewal thread: the commit itself
        // must find the local deadline (2 s) past, though the database still holds the lease (3 s).
        Primary p = primary(db, TestTimings.FAST);
        Handle h = p.leases().claim(uniqueName("tx-paused")).orElseThrow();

        assertThrows(LeaseLostException.class, () -> p.leases().run(LeaseScope.root(), h, LOG,
                scope -> p.tx().inTransaction(PRIMARY, c -> {
                    insertProbe(c);
                    Thread.sleep(TestTimings.FAST.localDeadline().plusMillis(200)); // the pause
                    return null;
                })));

        assertEquals(0, probeRows(p.pool()), "nothing committed past the local deadline");
        assertFalse(h.lost(), "no renewal thread ran to say so: the commit found it alone");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void transactionOutsideAnyLeaseRunsUnguarded(TestDatabase db) throws Exception {
        Primary p = primary(db, TestTimings.FAST);
        // A lease that is not this holder's anywhere near: nothing outside a lease's work checks it.
        Handle h = p.leases().claim(uniqueName("tx-outside")).orElseThrow();
        db.expire(h.name());

        p.tx().inTransaction(PRIMARY, this::insertProbe);
        p.tx().inTransaction("other", this::insertProbe);

        assertEquals(1, probeRows(p.pool()));
        assertEquals(1, probeRows(other));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void workCannotCommitRollBackOrCloseTheTransactionItself(TestDatabase db) throws Exception {
        Primary p = primary(db, TestTimings.FAST);
        Handle h = p.leases().claim(uniqueName("tx-boundaries")).orElseThrow();

        p.leases().run(LeaseScope.root(), h, LOG, scope -> p.tx().inTransaction(PRIMARY, c -> {
            insertProbe(c);
            assertThrows(SQLException.class, c::commit);
            assertThrows(SQLException.class, c::rollback);
            assertThrows(SQLException.class, c::close);
            assertThrows(SQLException.class, () -> c.setAutoCommit(true));
            return null;
        }));

        assertEquals(1, probeRows(p.pool()), "the guard, not the work, committed");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void transactionOpenWhenTheScopeEndsForAShutdownIsRolledBack(TestDatabase db) throws Exception {
        Primary p = primary(db, TestTimings.FAST);
        Handle h = p.leases().claim(uniqueName("tx-shutdown")).orElseThrow();
        LeaseScope scope = LeaseScope.root();

        assertThrows(java.util.concurrent.CancellationException.class, () -> p.leases().run(scope, h, LOG,
                s -> p.tx().inTransaction(PRIMARY, c -> {
                    insertProbe(c);
                    scope.cancel("shutdown");
                    return null;
                })));
        assertEquals(0, probeRows(p.pool()));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aStatementTheScopesEndCutOffThrowsTheInterruptionWithTheDriversErrorAsCause(TestDatabase db) throws Exception {
        // What the work throws tells a round stopped by the guard from one whose statement failed on its own.
        Primary p = primary(db, TestTimings.FAST);
        Handle h = p.leases().claim(uniqueName("tx-aborted")).orElseThrow();
        LeaseScope scope = LeaseScope.root();
        AtomicBoolean driverFailed = new AtomicBoolean();

        CancellationException thrown = assertThrows(CancellationException.class, () -> p.leases().run(scope, h, LOG,
                s -> p.tx().inTransaction(PRIMARY, c -> {
                    insertProbe(c);
                    scope.cancel("shutdown"); // aborts the connection under the work
                    try (Statement st = c.createStatement()) {
                        st.executeQuery("SELECT COUNT(*) FROM " + probe).close();
                    } catch (SQLException e) {
                        driverFailed.set(true);
                        throw e;
                    }
                    return null;
                })));

        if (driverFailed.get()) {
            assertInstanceOf(SQLException.class, thrown.getCause(), "the driver's error is kept as the cause");
        } else {
            assertTrue(db.isSqlite(), "only SQLite's driver has no abort: " + db);
        }
        assertEquals(0, probeRows(p.pool()));
    }

    /** Waits for the scope to end, as work holding its transaction open would, and returns normally. */
    private static void awaitEnd(LeaseScope scope, Duration atMost) {
        long until = System.nanoTime() + atMost.toNanos();
        while (!scope.isCancelled() && System.nanoTime() < until) {
            try {
                scope.await(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
            } catch (InterruptedException e) {
                // The scope ending interrupts the work's thread; the loop then sees it ended.
            }
        }
        Thread.interrupted(); // the guard, not this interruption, is what the test is about
    }
}
