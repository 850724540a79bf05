package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

/** Gives a name back at once. Zero rows: the lease was already gone; the work is done either way. */
final class ReleaseStatement {
    private ReleaseStatement() {}

    static int release(Sql sql, String name, String holder) {
        int rows = sql.dsl().update(GST_LEASES)
                .set(EXPIRES_AT_MS, 0L)
                .where(NAME.eq(name))
                .and(HOLDER.eq(holder))
                .execute();
        return Sql.atMostOne(rows, "release");
    }
}
