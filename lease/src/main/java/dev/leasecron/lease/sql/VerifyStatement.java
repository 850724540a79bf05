package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import java.util.OptionalLong;

/** The transaction guard's check: the lease is this holder's and unexpired, by the database clock. */
final class VerifyStatement {
    private VerifyStatement() {}

    static OptionalLong verify(Sql sql, String name, String holder) {
        Long term = sql.dsl().select(TERM)
                .from(GST_LEASES)
                .where(NAME.eq(name))
                .and(HOLDER.eq(holder))
                .and(EXPIRES_AT_MS.gt(sql.now()))
                .fetchOne(TERM);
        return term == null ? OptionalLong.empty() : OptionalLong.of(term);
    }
}
