package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;
import static org.jooq.impl.DSL.val;
import static org.jooq.impl.DSL.when;

/**
 * Records that a round ran to its end. With the lease, in the same statement that releases it, and
 * taking along {@code passed} (the last instant that came while the round ran) when it is later than
 * the one on record and the database clock has reached it. Without the lease, it records the end
 * only, and only if no later instant has been claimed since.
 */
final class FinishStatement {
    private FinishStatement() {}

    static int withLease(Sql sql, String name, String holder, long passedMs) {
        int rows = sql.dsl().update(GST_LEASES)
                .set(EXPIRES_AT_MS, 0L)
                .set(UNFINISHED_SLOT_MS, 0L)
                .set(SLOT_MS, when(SLOT_MS.lt(val(passedMs)).and(val(passedMs).le(sql.now())), val(passedMs))
                        .otherwise(SLOT_MS))
                .where(NAME.eq(name))
                .and(HOLDER.eq(holder))
                .execute();
        return Sql.atMostOne(rows, "finish");
    }

    static int withoutLease(Sql sql, String name, long slotMs) {
        int rows = sql.dsl().update(GST_LEASES)
                .set(UNFINISHED_SLOT_MS, 0L)
                .where(NAME.eq(name))
                .and(UNFINISHED_SLOT_MS.eq(slotMs))
                .execute();
        return Sql.atMostOne(rows, "finish without the lease");
    }
}
