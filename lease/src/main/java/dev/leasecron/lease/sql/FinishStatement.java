package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;
import static org.jooq.impl.DSL.val;
import static org.jooq.impl.DSL.when;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.jooq.Field;

/**
 * Records that a round ran to its end. With the lease, in the same statement that releases it, and
 * taking along {@code passed} (the last instant that came while the round ran) when it is later than
 * the one on record and the database clock has reached it. Without the lease, it records the end
 * only, and only if no later instant has been claimed since. The batch forms do either for many
 * rounds in one statement, row by row under the single statement's WHERE and SET.
 */
final class FinishStatement {
    private FinishStatement() {}

    static int withLease(Sql sql, String name, String holder, long passedMs) {
        int rows = sql.dsl().update(GST_LEASES)
                .set(EXPIRES_AT_MS, 0L)
                .set(UNFINISHED_SLOT_MS, 0L)
                .set(SLOT_MS, takeAlong(sql, val(passedMs)))
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

    /** The rounds among {@code ended} whose lease was still theirs: finished and given back. */
    static Set<HeldName> withLeaseMany(Sql sql, List<Finishing> ended) {
        List<HeldName> asked = ended.stream().map(f -> new HeldName(f.name(), f.holder())).toList();
        BatchStatement write = JoinedUpdate.of(sql.dialect(), List.of("b_name", "b_holder", "b_passed_ms"),
                ended.stream().<List<?>>map(f -> List.of(f.name(), f.holder(), f.passedMs())).toList(),
                // The single finish's takeAlong, on the batch row's passed instant.
                set -> set.sql("expires_at_ms = 0, unfinished_slot_ms = 0, slot_ms = CASE WHEN slot_ms < b.b_passed_ms"
                        + " AND b.b_passed_ms <= " + sql.nowSql() + " THEN b.b_passed_ms ELSE slot_ms END"),
                where -> where.sql("name = b.b_name AND holder = b.b_holder"));
        return sql.written("finish", asked, "", write);
    }

    /** Records the end of each round of {@code ended} without its lease; what it matched is not needed. */
    static void withoutLeaseMany(Sql sql, Collection<Finishing> ended) {
        JoinedUpdate.of(sql.dialect(), List.of("b_name", "b_slot_ms"),
                ended.stream().<List<?>>map(f -> List.of(f.name(), f.slotMs())).toList(),
                set -> set.sql("unfinished_slot_ms = 0"),
                where -> where.sql("name = b.b_name AND unfinished_slot_ms = b.b_slot_ms"))
                .execute(sql);
    }

    /** {@code passed} when it is later than the instant on record and the database clock has reached it. */
    private static Field<Long> takeAlong(Sql sql, Field<Long> passed) {
        return when(SLOT_MS.lt(passed).and(passed.le(sql.now())), passed).otherwise(SLOT_MS);
    }
}
