package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.StoreCalls.rootMessage;

import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.UnsupportedDatabaseException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The databases the protocol runs on, which of them is behind a data source, and the one thing that
 * differs between them beyond jOOQ's rendering: how a statement reads the database clock in UTC
 * milliseconds without a round trip through any session time zone.
 */
public enum Dialect {
    /** {@code clock_timestamp()}, not {@code now()}: the latter is the transaction's start. */
    POSTGRES(SQLDialect.POSTGRES, "CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) AS BIGINT)"),
    /**
     * The argument-less {@code UNIX_TIMESTAMP()} never passes through the session time zone, which is
     * ambiguous in a repeated DST hour; {@code NOW(3)} adds only its milliseconds.
     */
    MYSQL(SQLDialect.MYSQL, "(UNIX_TIMESTAMP() * 1000 + MICROSECOND(NOW(3)) DIV 1000)"),
    /** As {@link #MYSQL}; jOOQ renders a few statements differently for MariaDB. */
    MARIADB(SQLDialect.MARIADB, "(UNIX_TIMESTAMP() * 1000 + MICROSECOND(NOW(3)) DIV 1000)"),
    SQLITE(SQLDialect.SQLITE, "CAST(unixepoch('subsec') * 1000 AS INTEGER)");

    private final SQLDialect jooq;
    private final String nowMillisSql;

    Dialect(SQLDialect jooq, String nowMillisSql) {
        this.jooq = jooq;
        this.nowMillisSql = nowMillisSql;
    }

    SQLDialect jooq() {
        return jooq;
    }

    /** The database clock in UTC ms, computed by the statement that contains it. */
    @SuppressWarnings("deprecation") // plain SQL is the point: this expression is not in jOOQ's model
    Field<Long> nowMillis() {
        return DSL.field(nowMillisSql, Long.class);
    }

    /** True on databases reached through one connection, where statements queue behind each other. */
    public boolean singleConnection() {
        return this == SQLITE;
    }

    /**
     * The dialect of a database by the product name its JDBC driver reports.
     *
     * @throws UnsupportedDatabaseException for ClickHouse, which has neither the row-level updates nor
     *     the unique keys a lease needs, and for any database the protocol was not written for
     */
    public static Dialect fromProductName(String productName) {
        String p = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (p.contains("postgres")) return POSTGRES;
        if (p.contains("mariadb")) return MARIADB;
        if (p.contains("mysql")) return MYSQL;
        if (p.contains("sqlite")) return SQLITE;
        throw new UnsupportedDatabaseException(productName);
    }

    /**
     * The dialect of the database behind {@code dataSource}, from its driver's product name.
     *
     * @throws UnsupportedDatabaseException the protocol cannot run there
     * @throws LeaseDatabaseException the database could not be reached
     */
    public static Dialect detect(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return fromProductName(c.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw new LeaseDatabaseException("cannot reach the primary database: " + driverMessage(e), e);
        }
    }

    /**
     * What the driver said when a connection failed ({@code password authentication failed},
     * {@code Connection refused}, {@code database "x" does not exist}): the message of the innermost
     * {@link SQLException}. A pool wraps the driver's exception in its own timeout, which says only
     * that no connection came; the driver's, when there is one, is its cause.
     */
    static String driverMessage(SQLException e) {
        SQLException innermost = e;
        for (Throwable t = e.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getMessage() != null) {
                innermost = sql;
            }
        }
        if (innermost.getMessage() != null) {
            return innermost.getMessage();
        }
        return rootMessage(e);
    }
}
