package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

/** Extends a held lease from the database's now. Zero rows: lost (expired, released or taken). */
final class RenewStatement {
    private RenewStatement() {}

    static int renew(Sql sql, String name, String holder) {
        int rows = sql.dsl().update(GST_LEASES)
                .set(EXPIRES_AT_MS, sql.expiry())
                .where(NAME.eq(name))
                .and(HOLDER.eq(holder))
                .and(EXPIRES_AT_MS.gt(sql.now()))
                .execute();
        return Sql.atMostOne(rows, "renew");
    }
}
