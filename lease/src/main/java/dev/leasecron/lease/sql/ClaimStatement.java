package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

/**
 * Claims a name that is free: expired or released ({@code UPDATE}), or never claimed ({@code INSERT}
 * that does nothing when the name is there). One row: claimed; none: someone holds it, or was first.
 */
final class ClaimStatement {
    private ClaimStatement() {}

    static int takeOver(Sql sql, String name, String holder, String instance) {
        int rows = sql.dsl().update(GST_LEASES)
                .set(HOLDER, holder)
                .set(INSTANCE, instance)
                .set(TERM, TERM.plus(1))
                .set(EXPIRES_AT_MS, sql.expiry())
                .where(NAME.eq(name))
                .and(EXPIRES_AT_MS.le(sql.now()))
                .execute();
        return Sql.atMostOne(rows, "claim");
    }

    static int insertNew(Sql sql, String name, String holder, String instance) {
        int rows = sql.dsl().insertInto(GST_LEASES)
                .set(NAME, name)
                .set(HOLDER, holder)
                .set(INSTANCE, instance)
                .set(TERM, 1L)
                .set(EXPIRES_AT_MS, sql.expiry())
                .onConflictDoNothing()
                .execute();
        return Sql.atMostOne(rows, "claim insert");
    }
}
