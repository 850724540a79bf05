package dev.leasecron.lease;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import javax.sql.DataSource;

/**
 * Transactions on the configured databases, guarded by the lease the current work runs under (see
 * {@link CurrentLease}). Under a lease:
 *
 * <ol>
 *   <li>verify runs before the work's first statement: in the transaction itself on the primary
 *       database, against the primary first for any other database (which has no lease table); when
 *       the lease is not this holder's, not one statement of the work runs;
 *   <li>the transaction ends with the work's scope: when the lease is lost (or the scope ends for a
 *       shutdown) while it is open, its connection is aborted, and what the work then throws comes
 *       out as the interruption itself (a {@link LeaseLostException}, or a
 *       {@link CancellationException} for a shutdown), the driver's error as its cause, so that a
 *       caller can tell a round stopped by the guard from one whose statement failed on its own;
 *   <li>the commit is refused once the scope has ended, and the transaction rolled back.
 * </ol>
 *
 * Outside a lease a transaction runs unguarded. Writes outside such a transaction are not checked:
 * work stops through its scope, not through a check on every statement.
 */
public final class GuardedTransactions {
    /** The name of the primary database, the one that holds the leases. */
    public static final String PRIMARY = "primary";
    private static final Set<String> RESERVED = Set.of("commit", "rollback", "close", "setAutoCommit", "abort",
            "setSavepoint", "releaseSavepoint");

    private final Leases leases;
    private final Map<String, DataSource> databases;

    /**
     * @param primary the database holding the leases
     * @param others further databases by name; {@value #PRIMARY} is reserved
     */
    public GuardedTransactions(Leases leases, DataSource primary, Map<String, DataSource> others) {
        if (others.containsKey(PRIMARY)) {
            throw new IllegalArgumentException("the database name \"" + PRIMARY + "\" is reserved for the primary database");
        }
        this.leases = leases;
        var all = new java.util.HashMap<String, DataSource>(others);
        all.put(PRIMARY, primary);
        this.databases = Map.copyOf(all);
    }

    /**
     * Runs {@code work} in one transaction on {@code database}, committed when it returns and rolled
     * back when it throws.
     *
     * @throws IllegalArgumentException no database has that name
     * @throws LeaseLostException the current lease was not, or is no longer, this holder's
     * @throws CancellationException the work's scope ended for a shutdown before the commit
     * @throws Exception what the work threw, unless the scope's end had aborted the transaction under it
     */
    public <T> T inTransaction(String database, ConnectionWork<T> work) throws Exception {
        DataSource dataSource = databases.get(database);
        if (dataSource == null) {
            throw new IllegalArgumentException("no database named \"" + database + "\"; configured: "
                    + new java.util.TreeSet<>(databases.keySet()));
        }
        Optional<CurrentLease.Bound> bound = CurrentLease.bound();
        if (bound.isPresent() && !PRIMARY.equals(database)) {
            Handle h = bound.get().handle();
            requireHeld(bound.get(), leases.store().reads().verify(h.name(), h.holder()).isPresent());
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            Abort abort = new Abort(connection);
            AutoCloseable endsWithScope = bound.isPresent() ? bound.get().scope().onCancel(abort::run) : () -> {};
            try (endsWithScope) {
                if (bound.isPresent() && PRIMARY.equals(database)) {
                    Handle h = bound.get().handle();
                    requireHeld(bound.get(), leases.store().reads().verifyOn(connection, h.name(), h.holder()).isPresent());
                }
                T result = work.run(guarded(connection));
                abort.disarm();
                if (bound.isPresent()) {
                    refuseCommitIfEnded(bound.get(), leases.timings().localDeadline());
                }
                connection.commit();
                return result;
            } catch (Throwable t) {
                boolean aborted = abort.disarm();
                // Through the pool's proxy: on a connection the abort killed, the rollback's error makes the
                // pool discard the connection instead of lending it out again.
                rollbackQuietly(connection, t);
                if (aborted && t instanceof Exception e && !(t instanceof LeaseLostException)
                        && !(t instanceof CancellationException)) {
                    throw interruption(bound.orElseThrow(), e);
                }
                throw t;
            }
        }
    }

    /**
     * Aborts the transaction's connection when the scope ends while the work runs, and never once the
     * work has returned: an abort racing with the connection's return to the pool would kill a
     * connection the pool lends to someone else.
     */
    private static final class Abort {
        private final Connection connection;
        private boolean disarmed;
        private boolean aborted;

        Abort(Connection connection) {
            this.connection = connection;
        }

        synchronized void run() {
            if (!disarmed) {
                try {
                    connection.abort(Runnable::run);
                    aborted = true;
                } catch (SQLException | RuntimeException e) {
                    // The commit is refused regardless; a driver that cannot abort is left to the rollback.
                }
            }
        }

        /** @return whether the scope's end came first and the driver aborted the connection */
        synchronized boolean disarm() {
            disarmed = true;
            return aborted;
        }
    }

    /**
     * What a transaction the scope's end aborted throws: the interruption that ended it, not the
     * driver's error (a closed connection, a cancelled statement) that the abort caused.
     */
    private static RuntimeException interruption(CurrentLease.Bound bound, Exception driverError) {
        Handle h = bound.handle();
        Throwable reason = bound.scope().reason();
        RuntimeException e = h.lost() || reason instanceof LeaseLostException
                ? new LeaseLostException("lease " + h.name() + " (term " + h.term() + ") was lost: the transaction was aborted")
                : new CancellationException("the work's scope ended (" + reason.getMessage() + "): the transaction was aborted");
        e.initCause(driverError);
        return e;
    }

    private static void requireHeld(CurrentLease.Bound bound, boolean held) {
        if (!held) {
            Handle h = bound.handle();
            throw new LeaseLostException("lease " + h.name() + " (term " + h.term()
                    + ") is no longer this holder's: the transaction was not started");
        }
    }

    private static void refuseCommitIfEnded(CurrentLease.Bound bound, Duration localDeadline) {
        LeaseScope scope = bound.scope();
        if (bound.handle().lost()) {
            throw new LeaseLostException("lease " + bound.handle().name() + " was lost: commit refused");
        }
        if (bound.handle().pastLocalDeadline(localDeadline)) {
            throw new LeaseLostException("lease " + bound.handle().name() + " had no renewal within " + localDeadline
                    + ": it counts as lost, commit refused");
        }
        if (scope.isCancelled()) {
            if (scope.reason() instanceof LeaseLostException lost) {
                throw new LeaseLostException(lost.getMessage() + ": commit refused");
            }
            throw new CancellationException("the work's scope ended (" + scope.reason().getMessage() + "): commit refused");
        }
    }

    /** The connection as the work sees it: the transaction's boundaries stay ours. */
    private static Connection guarded(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (RESERVED.contains(method.getName())) {
                        throw new SQLException("a guarded transaction's work may not call " + method.getName()
                                + "(): the guard commits or rolls back when the work returns");
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static void rollbackQuietly(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
