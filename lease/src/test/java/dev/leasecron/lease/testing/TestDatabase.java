package dev.leasecron.lease.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * One database server the tests run on: a JDBC URL with credentials, handing out pools that the
 * test closes through {@link #close()}. SQLite pools have one connection, as the daemon's do.
 */
public final class TestDatabase implements AutoCloseable {
    private final String kind;
    private final String url;
    private final String user;
    private final String password;
    private final List<HikariDataSource> pools = new ArrayList<>();

    TestDatabase(String kind, String url, String user, String password) {
        this.kind = kind;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** {@code sqlite}, {@code postgres} or {@code mariadb}. */
    public String kind() {
        return kind;
    }

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    public boolean isSqlite() {
        return kind.equals("sqlite");
    }

    /** A new pool; SQLite's always has one connection, like the daemon's. */
    public synchronized HikariDataSource pool(int size) {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(url);
        if (user != null) c.setUsername(user);
        if (password != null) c.setPassword(password);
        c.setMaximumPoolSize(isSqlite() ? 1 : size);
        c.setMinimumIdle(isSqlite() ? 1 : Math.min(2, size));
        c.setConnectionTimeout(10_000);
        c.setPoolName(kind + "-" + pools.size());
        HikariDataSource ds = new HikariDataSource(c);
        pools.add(ds);
        return ds;
    }

    /** Initialized leases over a new pool, as one replica would have. */
    public Leases leases(LeaseTimings timings) {
        return leases(timings, pool(4));
    }

    public Leases leases(LeaseTimings timings, DataSource pool) {
        return leases(timings, pool, LeaseListener.NONE);
    }

    public Leases leases(LeaseTimings timings, DataSource pool, LeaseListener listener) {
        Leases leases = Leases.create(pool, timings, "test", listener);
        leases.initialize();
        return leases;
    }

    /** A lease name no other test uses, so tests share the table without cleaning it. */
    public static String uniqueName(String prefix) {
        return prefix + ":" + UUID.randomUUID();
    }

    /** Runs one statement on a fresh connection of a new single-connection pool. */
    public void execute(String sql) throws SQLException {
        try (Connection c = pool(1).getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Runs one statement with {@code params} on a fresh connection and returns its row count. */
    public int update(String sql, Object... params) throws SQLException {
        try (Connection c = pool(1).getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            return s.executeUpdate();
        }
    }

    /** Ends {@code name}'s lease behind its holder's back, the way an expiry or a stranger's release would. */
    public void expire(String name) throws SQLException {
        update("UPDATE gst_leases SET expires_at_ms = 0 WHERE name = ?", name);
    }

    /**
     * Stalls the database for {@code name}'s holder until closed: another connection writes the row in
     * a transaction it keeps open, so every renewal waits on the row lock (on SQLite, on the write
     * lock of the whole file). Reads of the row go on answering.
     */
    public AutoCloseable stall(String name) throws SQLException {
        Connection c = pool(1).getConnection();
        c.setAutoCommit(false);
        try (PreparedStatement s = c.prepareStatement("UPDATE gst_leases SET instance = instance WHERE name = ?")) {
            s.setString(1, name);
            s.executeUpdate();
        }
        return () -> {
            try (c) {
                c.rollback();
            }
        };
    }

    @Override
    public synchronized void close() {
        pools.forEach(HikariDataSource::close);
        pools.clear();
    }

    @Override
    public String toString() {
        return kind;
    }
}
