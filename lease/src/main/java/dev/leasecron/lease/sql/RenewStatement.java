package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Extends a held lease from the database's now. Zero rows: lost (expired, released or taken). The
 * batch form renews many leases in one statement, each row under the single renewal's WHERE, and
 * tells which it renewed.
 */
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

    /** The leases among {@code held} still held: renewed. The others are lost. */
    static Set<HeldName> renewMany(Sql sql, Collection<HeldName> held) {
        BatchStatement write = JoinedUpdate.of(sql.dialect(), List.of("b_name", "b_holder"),
                held.stream().<List<?>>map(h -> List.of(h.name(), h.holder())).toList(),
                set -> set.sql("expires_at_ms = " + sql.expirySql()),
                where -> where.sql("name = b.b_name AND holder = b.b_holder AND expires_at_ms > " + sql.nowSql()));
        // Read back, a renewed row is one still unexpired: a row the write missed because it had
        // expired may still carry the token, and stays expired.
        return sql.written("renew", held, "expires_at_ms > " + sql.nowSql(), write);
    }
}
