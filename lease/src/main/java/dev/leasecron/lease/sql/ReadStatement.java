package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import dev.leasecron.lease.LeaseRow;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads that decide nothing on their own: the last instant, whole rows, who claims, the database clock. */
final class ReadStatement {
    private ReadStatement() {}

    static Optional<Long> lastSlot(Sql sql, String name) {
        return sql.dsl().select(SLOT_MS).from(GST_LEASES).where(NAME.eq(name)).fetchOptional(SLOT_MS);
    }

    static List<LeaseRow> rows(Sql sql, Collection<String> names) {
        return sql.dsl()
                .select(NAME, HOLDER, INSTANCE, TERM, EXPIRES_AT_MS, SLOT_MS, UNFINISHED_SLOT_MS, RERUN_SLOT_MS, sql.now())
                .from(GST_LEASES)
                .where(NAME.in(names))
                .orderBy(NAME)
                .fetch(r -> new LeaseRow(r.value1(), r.value2(), r.value3(), r.value4(), r.value5(), r.value6(),
                        r.value7(), r.value8(), r.value9()));
    }

    /**
     * The instances that claimed, under one of {@code names}, an instant at most {@code withinMs}
     * before the database's now.
     */
    static Set<String> claimingInstances(Sql sql, Collection<String> names, long withinMs) {
        Set<String> instances = new HashSet<>();
        if (sql.dialect() == Dialect.POSTGRES) {
            // Every job's name: one array value on PostgreSQL, rather than a value bound per name.
            new BatchStatement().sql("SELECT DISTINCT l.instance FROM gst_leases l")
                    .joinNames("l.name", names)
                    .sql(" WHERE l.slot_ms >= " + sql.nowSql() + " - " + withinMs)
                    .fetch(sql, r -> instances.add(r.getString(1)));
            return instances;
        }
        sql.dsl().selectDistinct(INSTANCE).from(GST_LEASES)
                .where(NAME.in(names))
                .and(SLOT_MS.ge(sql.now().minus(withinMs)))
                .fetch(INSTANCE)
                .forEach(instances::add);
        return instances;
    }

    /**
     * Text rendered once rather than a jOOQ query: the scheduler reads the clock before each instant
     * (and a round near its next one), too seldom for the JIT to compile jOOQ's rendering of it.
     */
    static long now(Sql sql) {
        return new BatchStatement().sql("SELECT " + sql.nowSql()).fetch(sql, r -> r.getLong(1)).getFirst();
    }
}
