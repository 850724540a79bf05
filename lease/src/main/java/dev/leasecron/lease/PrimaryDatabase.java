package dev.leasecron.lease;

import dev.leasecron.lease.sql.Dialect;
import dev.leasecron.lease.sql.LeaseStore;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The primary database as {@link Leases} opens it: its kind learned, its tables created or found,
 * and the store of its statements from then on. A kind that cannot carry leases is remembered, so
 * every later use fails as the opening did.
 */
final class PrimaryDatabase {
    private final DataSource primary;
    private final LeaseTimings timings;
    private volatile LeaseStore store;
    private volatile RuntimeException unavailable;

    PrimaryDatabase(DataSource primary, LeaseTimings timings) {
        this.primary = Objects.requireNonNull(primary, "primary");
        this.timings = timings;
    }

    /** {@link Leases#initialize()}: creates the tables when missing, {@code gst_history} only {@code withHistory}. */
    void initialize(boolean withHistory) {
        LeaseStore s = detectStore();
        s.createTableIfMissing();
        s.controls().createSuspensionsIfMissing();
        if (withHistory) {
            s.history().createIfMissing();
        }
        s.controls().createRunRequestsIfMissing();
        store = s;
    }

    /** {@link Leases#openExisting()}: opens the database only where the lease table is there. */
    boolean openExisting() {
        LeaseStore s = detectStore();
        if (!s.tableExists()) {
            return false;
        }
        store = s;
        return true;
    }

    /** {@link Leases#available()}: returns once the database is open and can carry leases. */
    void available() {
        if (unavailable != null) {
            throw unavailable;
        }
        if (store == null) {
            throw new IllegalStateException("leases are not initialized: the primary database has not been opened yet");
        }
    }

    /** Whether the database answers and the lease table is there: a readiness check. */
    boolean ready() {
        LeaseStore s = store;
        return s != null && s.tableExists();
    }

    /** The store of the opened database; before the opening, fails as {@link #available()} does. */
    LeaseStore store() {
        LeaseStore s = store;
        if (s == null) {
            available();
        }
        return s;
    }

    /** A store for the primary database's kind; a kind that cannot carry leases is remembered as such. */
    private LeaseStore detectStore() {
        Dialect dialect;
        try {
            dialect = Dialect.detect(primary);
        } catch (UnsupportedDatabaseException e) {
            unavailable = e;
            throw e;
        }
        return new LeaseStore(primary, dialect, timings.leaseDuration(), timings.attemptTimeout());
    }
}
