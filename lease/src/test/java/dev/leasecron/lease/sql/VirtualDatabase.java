package dev.leasecron.lease.sql;

import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jooq.impl.DSL;
import org.sqlite.Function;

/**
 * An in-memory SQLite database whose clock is virtual: the lease statements read {@code lc_now()},
 * a function registered on the connection that returns {@link #nowMs}, so a simulation moves time
 * by assignment and every statement sees exactly the time it is given.
 */
final class VirtualDatabase implements AutoCloseable {
    private final Connection connection;
    private final LeaseStore store;
    long nowMs = 1_000_000;

    VirtualDatabase(Duration leaseDuration) throws SQLException {
        connection = DriverManager.getConnection("jdbc:sqlite::memory:");
        Function.create(connection, "lc_now", new Function() {
            @Override
            protected void xFunc() throws SQLException {
                result(nowMs);
            }
        });
        store = new LeaseStore(singleConnection(connection), Dialect.SQLITE, leaseDuration, Duration.ofSeconds(1),
                DSL.field("lc_now()", Long.class));
        store.createTableIfMissing();
    }

    LeaseStore store() {
        return store;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    /** A data source handing out the one connection, whose close() the statements' callers may call freely. */
    private static DataSource singleConnection(Connection c) {
        Connection unclosable = (Connection) Proxy.newProxyInstance(VirtualDatabase.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    try {
                        return method.invoke(c, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return new DataSource() {
            @Override public Connection getConnection() { return unclosable; }
            @Override public Connection getConnection(String u, String p) { return unclosable; }
            @Override public PrintWriter getLogWriter() { return null; }
            @Override public void setLogWriter(PrintWriter out) { }
            @Override public void setLoginTimeout(int seconds) { }
            @Override public int getLoginTimeout() { return 0; }
            @Override public Logger getParentLogger() { return Logger.getGlobal(); }
            @Override public <T> T unwrap(Class<T> iface) { throw new UnsupportedOperationException(); }
            @Override public boolean isWrapperFor(Class<?> iface) { return false; }
        };
    }
}
