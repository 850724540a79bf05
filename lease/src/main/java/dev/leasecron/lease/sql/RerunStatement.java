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
