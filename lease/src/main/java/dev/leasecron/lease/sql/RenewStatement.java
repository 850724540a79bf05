package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.UpdateConditionStep;

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
        // Read back, a renewed row is one still unexpired: a row the write missed because it had
        // expired may still carry the token, and stays expired.
        return sql.written("renew", sql.updateReturns(), held, EXPIRES_AT_MS.gt(sql.now()), s -> renewManyWrite(s, held),
                s -> renewManyWrite(s, held).returningResult(NAME, HOLDER));
    }

    private static UpdateConditionStep<Record> renewManyWrite(Sql sql, Collection<HeldName> held) {
        Table<Record> b = sql.rows(List.of("b_name", "b_holder"),
                held.stream().<List<?>>map(h -> List.of(h.name(), h.holder())).toList());
        return sql.dsl().update(GST_LEASES)
                .set(EXPIRES_AT_MS, sql.expiry())
                .from(b)
                .where(NAME.eq(b.field("b_name", String.class)))
                .and(HOLDER.eq(b.field("b_holder", String.class)))
                .and(EXPIRES_AT_MS.gt(sql.now()));
    }
}
