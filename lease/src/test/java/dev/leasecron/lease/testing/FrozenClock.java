package dev.leasecron.lease.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;
import javax.sql.DataSource;
import org.sqlite.Function;
import org.sqlite.SQLiteConnection;

/**
 * A single-connection pool on which the database clock stands still at the moment it was made, so
 * that every statement sent through it runs in one millisecond: on MariaDB the session's timestamp;
 * on PostgreSQL a {@code clock_timestamp()} of a schema of its own, found on the search path before
 * {@code pg_catalog}'s; on SQLite an application-defined {@code unixepoch()} on the one connection.
 * The statements themselves are the ones a deployment runs.
 */
public final class FrozenClock implements AutoCloseable {
    private final TestDatabase db;
    private final HikariDataSource pool;
    private final String schema;

    private FrozenClock(TestDatabase db, HikariDataSource pool, String schema) {
        this.db = db;
        this.pool = pool;
        this.schema = schema;
    }

    /** Stops the clock of a new pool on {@code db}. */
    public static FrozenClock on(TestDatabase db) throws SQLException {
        Instant at = Instant.now();
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(db.url());
        if (db.user() != null) c.setUsername(db.user());
        if (db.password() != null) c.setPassword(db.password());
        c.setMaximumPoolSize(1);
        c.setMinimumIdle(1);
        c.setPoolName(db.kind() + "-frozen");
        String schema = null;
        switch (db.kind()) {
            case "mariadb" -> c.setConnectionInitSql("SET timestamp = UNIX_TIMESTAMP(NOW(6))");
            case "postgres" -> {
                schema = "frozen_" + UUID.randomUUID().toString().replace("-", "");
                db.execute("CREATE SCHEMA " + schema);
                db.execute("CREATE FUNCTION " + schema + ".clock_timestamp() RETURNS timestamptz LANGUAGE sql AS "
                        + "$$ SELECT TIMESTAMPTZ '" + at + "' $$");
                c.setConnectionInitSql("SET search_path = public, " + schema + ", pg_catalog");
            }
            case "sqlite" -> { }
            default -> throw new IllegalArgumentException(db.kind());
        }
        HikariDataSource pool = new HikariDataSource(c);
        if (db.isSqlite()) {
            double seconds = at.toEpochMilli() / 1000.0;
            try (Connection connection = pool.getConnection()) {
                Function.create(connection.unwrap(SQLiteConnection.class), "unixepoch", new Function() {
                    @Override
                    protected void xFunc() throws SQLException {
                        result(seconds);
                    }
                });
            }
        }
        return new FrozenClock(db, pool, schema);
    }

    public DataSource pool() {
        return pool;
    }

    @Override
    public void close() throws SQLException {
        pool.close();
        if (schema != null) {
            db.execute("DROP SCHEMA " + schema + " CASCADE");
        }
    }
}
