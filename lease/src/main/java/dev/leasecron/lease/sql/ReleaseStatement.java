package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import java.util.Collection;
import java.util.List;
import java.util.Set;

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
        BatchStatement write = JoinedUpdate.of(sql.dialect(), List.of("b_name", "b_holder"),
                held.stream().<List<?>>map(h -> List.of(h.name(), h.holder())).toList(),
                set -> set.sql("expires_at_ms = 0"),
                where -> where.sql("name = b.b_name AND holder = b.b_holder"));
        return sql.written("release", held, "", write);
    }
}
