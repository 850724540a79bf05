package dev.leasecron.app.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.lease.InTurn;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Connection pools for the configured databases. SQLite gets one connection, as the lease protocol
 * expects of it: statements queue behind each other instead of failing on the file lock, and a
 * renewal waits behind the work's own transaction (see {@link dev.leasecron.lease.Leases#hold}).
 */
public final class Pools {
    /** The embedded default when the YAML has no {@code database:} section. */
    public static final String EMBEDDED_URL = "jdbc:sqlite:leasecron.db";
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);

    private Pools() {}

    /**
     * Opens a pool. Nothing is read from the database until a connection is first used, so a database
     * that is down at start-up is retried by the callers, not fatal here.
     */
    public static HikariDataSource open(String name, String url, String username, String password, int maxSize) {
        HikariConfig c = new HikariConfig();
        boolean sqlite = url.startsWith("jdbc:sqlite:");
        c.setPoolName("leasecron-" + name);
        c.setJdbcUrl(sqlite ? withSqliteDefaults(url) : url);
        if (username != null && !username.isEmpty()) {
            c.setUsername(username);
        }
        if (password != null && !password.isEmpty()) {
            c.setPassword(password);
        }
        // A fixed size, as HikariCP advises: an instant's claims and finishes come all at once, and a
        // pool that has to open connections for them answers the burst late and closes them again after.
        c.setMaximumPoolSize(sqlite ? 1 : maxSize);
        c.setMinimumIdle(sqlite ? 1 : maxSize);
        c.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
        c.setInitializationFailTimeout(-1); // start without the database; readiness reports it
        return new HikariDataSource(c);
    }

    /**
     * The primary's pool as the leases and the transaction guard share it: on SQLite, whose pool has one
     * connection, that connection is handed out in the order asked for ({@link InTurn}), so a renewal
     * waiting behind the work's transaction gets it when that transaction ends; other pools as they are.
     */
    public static DataSource sharedByLeasesAndWork(HikariDataSource pool) {
        return pool.getJdbcUrl().startsWith("jdbc:sqlite:")
                ? InTurn.of(pool, pool.getMaximumPoolSize(), CONNECTION_TIMEOUT)
                : pool;
    }

    /** WAL and a busy timeout, unless the URL says otherwise: other processes may open the file too. */
    private static String withSqliteDefaults(String url) {
        StringBuilder u = new StringBuilder(url);
        char sep = url.contains("?") ? '&' : '?';
        if (!url.contains("journal_mode")) {
            u.append(sep).append("journal_mode=WAL");
            sep = '&';
        }
        if (!url.contains("busy_timeout")) {
            u.append(sep).append("busy_timeout=5000");
        }
        return u.toString();
    }
}
