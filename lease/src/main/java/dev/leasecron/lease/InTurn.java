package dev.leasecron.lease;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * A data source that hands its connections out in the order they were asked for. For a primary
 * database reached through one connection (SQLite): there a renewal waits behind the work's own
 * transactions, and the protocol counts on the renewal getting the connection when the transaction it
 * waited for ends. A pool left to itself may give the connection straight back to the thread that just
 * returned it (HikariCP prefers it), so work running transactions back to back would starve the
 * renewals and cost the lease, however short each transaction.
 *
 * <p>Wrap the pool once and give the same wrapper to {@link Leases} and {@link GuardedTransactions}:
 * the turns are kept by the wrapper, not by the pool.
 */
public final class InTurn {
    private InTurn() {}

    /**
     * {@code pool}, lending at most {@code connections} at a time, first come first served.
     *
     * @param waitAtMost how long a request waits for its turn before it fails as the pool's own wait would
     */
    public static DataSource of(DataSource pool, int connections, Duration waitAtMost) {
        Semaphore turns = new Semaphore(connections, true);
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("getConnection")) {
                        return invoke(pool, method, args);
                    }
                    try {
                        if (!turns.tryAcquire(waitAtMost.toNanos(), TimeUnit.NANOSECONDS)) {
                            throw new SQLTransientConnectionException("no connection within " + waitAtMost);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new SQLTransientConnectionException("interrupted while waiting for a connection", e);
                    }
                    try {
                        return returningTurn((Connection) invoke(pool, method, args), turns);
                    } catch (Throwable t) {
                        turns.release();
                        throw t;
                    }
                });
    }

    /** {@code connection}, handing the turn on once it is closed (back in the pool), and only once. */
    private static Connection returningTurn(Connection connection, Semaphore turns) {
        AtomicBoolean returned = new AtomicBoolean();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("close")) {
                        return invoke(connection, method, args);
                    }
                    try {
                        return invoke(connection, method, args);
                    } finally {
                        if (returned.compareAndSet(false, true)) {
                            turns.release();
                        }
                    }
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
