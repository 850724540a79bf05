package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.ResultQuery;
import org.jooq.RowN;
import org.jooq.Select;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * What every statement needs: where to run, the database clock ({@code now}, the dialect's own
 * expression in production; a registered function in the protocol simulation), and the lease
 * duration.
 */
record Sql(DSLContext dsl, Dialect dialect, Field<Long> now, long leaseMs) {

    /**
     * The most rows one batch statement carries. The widest batch row binds 7 parameters, so a
     * statement stays near 3,500 of them: far within PostgreSQL's 65,535 (the wire protocol's
     * 16-bit count), SQLite's 32,766 and MySQL's 65,535, and a few hundred kilobytes of SQL at most.
     */
    static final int MAX_BATCH = 500;


    /** The expiry a claim or renewal writes: the database's now plus the lease duration. */
    Field<Long> expiry() {
        return now().plus(leaseMs);
    }

    /**
     * A derived table {@code b} of {@code rows}, its columns named {@code columns}: the per-row input
     * of a batch statement, joined to {@code gst_leases} by name. {@code VALUES} on PostgreSQL and
     * SQLite; on MySQL and MariaDB a {@code UNION ALL} of one-row SELECTs, which every version of
     * either runs, where jOOQ would render MySQL 8.0.19's {@code VALUES ROW(...)} for the MySQL
     * dialect, which MariaDB (reached through MySQL's driver, which reports MySQL) refuses.
     */
    Table<Record> rows(List<String> columns, List<List<?>> rows) {
        String[] names = columns.toArray(String[]::new);
        if (dialect == Dialect.MYSQL || dialect == Dialect.MARIADB) {
            Select<Record> union = null;
            for (List<?> row : rows) {
                List<Field<?>> fields = new ArrayList<>();
                for (int i = 0; i < row.size(); i++) {
                    fields.add(DSL.val(row.get(i)).as(names[i]));
                }
                Select<Record> one = DSL.select(fields);
                union = union == null ? one : union.unionAll(one);
            }
            return Objects.requireNonNull(union, "a batch has rows").asTable("b");
        }
        RowN[] values = rows.stream().map(r -> DSL.row(r.toArray())).toArray(RowN[]::new);
        return DSL.values(values).as("b", names);
    }

    /** Reads a single-row statement's count: more than one row means the name is not unique. */
    static int atMostOne(int rows, String statement) {
        if (rows > 1) {
            throw new IllegalStateException(statement + " touched " + rows + " rows; names are unique, so this is a bug");
        }
        return rows;
    }

    /**
     * Whether a batch UPDATE can tell which rows it wrote in the statement itself ({@code RETURNING}).
     * MySQL and MariaDB cannot ({@code UPDATE ... RETURNING} exists in neither): there the write and a
     * read of the holder tokens it wrote run in one transaction instead, see {@link #readBack}.
     */
    boolean updateReturns() {
        return dialect == Dialect.POSTGRES || dialect == Dialect.SQLITE;
    }

    /**
     * Whether a batch INSERT can: on PostgreSQL only. SQLite has {@code INSERT ... RETURNING}, but
     * jOOQ 3.21 does not render it there (it drops the clause), so SQLite reads back as MySQL does.
     */
    boolean insertReturns() {
        return dialect == Dialect.POSTGRES;
    }

    /**
     * Runs a batch write and tells which of the rows it was given it wrote: through {@code RETURNING}
     * when {@code returning}, otherwise by {@link #readBack} in the write's own transaction.
     *
     * @param asked the rows the write was given, each with the token it writes or matches
     * @param readBackAlso what a written row meets beyond carrying its token, for the read back
     * @param write the statement, built on the {@code Sql} it is given
     * @param writeReturning the same statement returning the name and holder of each row written
     */
    Set<HeldName> written(String statement, boolean returning, Collection<HeldName> asked, Condition readBackAlso,
            Function<Sql, ? extends Query> write,
            Function<Sql, ? extends ResultQuery<Record2<String, String>>> writeReturning) {
        if (returning) {
            List<HeldName> rows = writeReturning.apply(this).fetch(r -> new HeldName(r.value1(), r.value2()));
            return exactly(new HashSet<>(rows), rows.size(), statement);
        }
        return dsl.transactionResult(cfg -> {
            Sql tx = new Sql(cfg.dsl(), dialect, now, leaseMs);
            int rows = write.apply(tx).execute();
            return exactly(readBack(tx.dsl(), asked, readBackAlso), rows, statement);
        });
    }

    /**
     * The rows among {@code written} that now carry their own holder token and meet {@code also}, read
     * on {@code tx}: run inside the transaction of the write before it, whose row locks keep every row
     * it wrote as written until the commit. A token is minted per claim and never reused, so a row
     * carries one only when the write gave it that token, or the claim it belongs to still holds.
     */
    private static Set<HeldName> readBack(DSLContext tx, Collection<HeldName> written, Condition also) {
        Set<HeldName> asked = new HashSet<>(written);
        Set<HeldName> found = new HashSet<>();
        tx.select(NAME, HOLDER)
                .from(GST_LEASES)
                .where(NAME.in(written.stream().map(HeldName::name).toList()))
                .and(HOLDER.in(written.stream().map(HeldName::holder).toList()))
                .and(also)
                .forEach(r -> {
                    HeldName h = new HeldName(r.value1(), r.value2());
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
