package dev.leasecron.lease.sql;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.jooq.Configuration;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;

/**
 * What every statement needs: where to run, the database clock ({@code now}, the dialect's own
 * expression in production; a registered function in the protocol simulation), and the lease
 * duration.
 *
 * @param nowSql {@code now} rendered as SQL text once, for the statements written as text: rendered
 *     through jOOQ at every batch, it was code that ran a few times per instant, never compiled by
 *     the JIT, on the path between an instant and the start of its rounds
 */
record Sql(DSLContext dsl, Dialect dialect, Field<Long> now, String nowSql, long leaseMs) {

    Sql(DSLContext dsl, Dialect dialect, Field<Long> now, long leaseMs) {
        this(dsl, dialect, now, dsl.render(now), leaseMs);
    }

    /**
     * What the statements need to run through {@code dataSource}: jOOQ's context with the statement
     * timeout and the synchronous-commit check.
     *
     * @param leaseDuration what a claim or renewal adds to the database's now
     * @param statementTimeout how long any statement may run before the driver cancels it
     */
    static Sql open(DataSource dataSource, Dialect dialect, Field<Long> now, Duration leaseDuration,
            Duration statementTimeout) {
        Settings base = new Settings().withExecuteLogging(false);
        // sqlite-jdbc turns a query timeout into the connection's busy timeout, replacing the URL's;
        // a statement there waits on the file lock, which the URL's busy_timeout bounds.
        Settings settings = dialect.singleConnection()
                ? base
                : base.withQueryTimeout((int) Math.max(1, Math.ceilDiv(statementTimeout.toMillis(), 1000)));
        Configuration configuration = new DefaultConfiguration().set(dataSource).set(dialect.jooq()).set(settings)
                .set(SynchronousCommit.LISTENER);
        return new Sql(DSL.using(configuration), dialect, now, leaseDuration.toMillis());
    }

    /** The same statements' needs on {@code connection}'s context: a transaction's. */
    Sql on(DSLContext connection) {
        return new Sql(connection, dialect, now, nowSql, leaseMs);
    }

    /**
     * The most rows one batch statement carries. The widest batch row binds 5 values, so a
     * statement stays near 2,500 of them: far within PostgreSQL's 65,535 (the wire protocol's
     * 16-bit count), SQLite's 32,766 and MySQL's 65,535, and a few hundred kilobytes of SQL at most.
     */
    static final int MAX_BATCH = 500;

    /** The expiry a claim or renewal writes: the database's now plus the lease duration. */
    Field<Long> expiry() {
        return now().plus(leaseMs);
    }

    /** {@link #expiry} as SQL text. */
    String expirySql() {
        return "(" + nowSql() + " + " + leaseMs + ")";
    }

    /** Reads a single-row statement's count: more than one row means the name is not unique. */
    static int atMostOne(int rows, String statement) {
        if (rows > 1) {
            throw new IllegalStateException(statement + " touched " + rows + " rows; names are unique, so this is a bug");
        }
        return rows;
    }

    /**
     * Whether a batch write can tell which rows it wrote in the statement itself ({@code RETURNING}):
     * on PostgreSQL and SQLite. MySQL and MariaDB cannot ({@code UPDATE ... RETURNING} exists in
     * neither): there the write and a read of the holder tokens it wrote run in one transaction
     * instead, see {@link #readBack}.
     */
    boolean returns() {
        return dialect == Dialect.POSTGRES || dialect == Dialect.SQLITE;
    }

    /**
     * Runs a batch write and tells which of the rows it was given it wrote: through {@code RETURNING}
     * where the dialect has it, otherwise by {@link #readBack} in the write's own transaction.
     *
     * @param asked the rows the write was given, each with the token it writes or matches
     * @param readBackAlso SQL a written row meets beyond carrying its token, for the read back; empty
     *     for none
     * @param write the statement, without {@code RETURNING}
     */
    Set<HeldName> written(String statement, Collection<HeldName> asked, String readBackAlso, BatchStatement write) {
        if (returns()) {
            List<HeldName> rows = write.sql(" RETURNING name, holder")
                    .fetch(this, r -> new HeldName(r.getString(1), r.getString(2)));
            return exactly(new HashSet<>(rows), rows.size(), statement);
        }
        return dsl.transactionResult(cfg -> {
            Sql tx = on(cfg.dsl());
            int rows = write.execute(tx);
            return exactly(readBack(tx, asked, readBackAlso), rows, statement);
        });
    }

    /**
     * The rows among {@code written} that now carry their own holder token and meet {@code also}, read
     * on {@code tx}: run inside the transaction of the write before it, whose row locks keep every row
     * it wrote as written until the commit. A token is minted per claim and never reused, so a row
     * carries one only when the write gave it that token, or the claim it belongs to still holds.
     */
    private static Set<HeldName> readBack(Sql tx, Collection<HeldName> written, String also) {
        Set<HeldName> asked = new HashSet<>(written);
        Set<HeldName> found = new HashSet<>();
        new BatchStatement().sql("SELECT name, holder FROM gst_leases WHERE name IN ")
                .list(written.stream().map(HeldName::name).toList())
                .sql(" AND holder IN ").list(written.stream().map(HeldName::holder).toList())
                .sql(also.isEmpty() ? "" : " AND " + also)
                .fetch(tx, r -> new HeldName(r.getString(1), r.getString(2)))
                .forEach(h -> {
                    if (asked.contains(h)) {
                        found.add(h);
                    }
                });
        return found;
    }

    /** Checks what a batch write reports per row against its own row count: a mismatch is a bug. */
    private static Set<HeldName> exactly(Set<HeldName> rows, int count, String statement) {
        if (rows.size() != count) {
            throw new IllegalStateException(statement + " wrote " + count + " rows but " + rows.size()
                    + " distinct names came back; names are unique and tokens never reused, so this is a bug");
        }
        return rows;
    }
}
