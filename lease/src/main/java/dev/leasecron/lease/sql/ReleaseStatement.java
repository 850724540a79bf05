package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;
import static org.jooq.impl.DSL.noCondition;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.UpdateConditionStep;

/**
 * Gives a name back at once. Zero rows: the lease was already gone; the work is done either way. The
 * batch form gives many back in one statement and tells which were still held.
 */
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

    /** The leases among {@code held} given back; the others were already gone. */
    static Set<HeldName> releaseMany(Sql sql, Collection<HeldName> held) {
        return sql.written("release", sql.updateReturns(), held, noCondition(), s -> releaseManyWrite(s, held),
                s -> releaseManyWrite(s, held).returningResult(NAME, HOLDER));
    }

    private static UpdateConditionStep<Record> releaseManyWrite(Sql sql, Collection<HeldName> held) {
        Table<Record> b = sql.rows(List.of("b_name", "b_holder"),
                held.stream().<List<?>>map(h -> List.of(h.name(), h.holder())).toList());
        return sql.dsl().update(GST_LEASES)
                .set(EXPIRES_AT_MS, 0L)
                .from(b)
                .where(NAME.eq(b.field("b_name", String.class)))
                .and(HOLDER.eq(b.field("b_holder", String.class)));
    }
}
