package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import java.util.Collection;
import java.util.List;

/**
 * Finds the instants whose round was cut short and that are free to claim again (one statement for
 * every name of a scheduler), and claims one of them again, held by the term found to the instant
 * found.
 */
final class RerunStatement {
    private RerunStatement() {}

    static List<FoundUnfinished> find(Sql sql, Collection<String> names) {
        if (sql.dialect() == Dialect.POSTGRES) {
            // Every job's name, every retry interval: on PostgreSQL one array value instead of a bind
            // value per name, which jOOQ would render and bind one by one each time.
            return new BatchStatement().sql("SELECT name, term, slot_ms FROM gst_leases WHERE name = ANY(")
                    .textArray(names)
                    .sql(") AND unfinished_slot_ms = slot_ms AND rerun_slot_ms < slot_ms AND expires_at_ms <= " + sql.nowSql())
                    .fetch(sql, r -> new FoundUnfinished(r.getString(1), r.getLong(2), r.getLong(3)));
        }
        // Elsewhere an IN list, through jOOQ: it inlines the values past SQLite's limit on bind values.
        return sql.dsl().select(NAME, TERM, SLOT_MS)
                .from(GST_LEASES)
                .where(NAME.in(names))
                .and(UNFINISHED_SLOT_MS.eq(SLOT_MS))
                .and(RERUN_SLOT_MS.lt(SLOT_MS))
                .and(EXPIRES_AT_MS.le(sql.now()))
                .fetch(r -> new FoundUnfinished(r.value1(), r.value2(), r.value3()));
    }

    static int claimAgain(Sql sql, String name, long term, String holder, String instance) {
        int rows = sql.dsl().update(GST_LEASES)
                .set(HOLDER, holder)
                .set(INSTANCE, instance)
                .set(TERM, TERM.plus(1))
                .set(EXPIRES_AT_MS, sql.expiry())
                .set(RERUN_SLOT_MS, SLOT_MS)
                .where(NAME.eq(name))
                .and(TERM.eq(term))
                .and(UNFINISHED_SLOT_MS.eq(SLOT_MS))
                .and(RERUN_SLOT_MS.lt(SLOT_MS))
                .and(EXPIRES_AT_MS.le(sql.now()))
                .execute();
        return Sql.atMostOne(rows, "claim again");
    }
}
