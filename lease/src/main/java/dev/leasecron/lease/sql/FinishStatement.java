package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.val;
import static org.jooq.impl.DSL.when;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.UpdateConditionStep;

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
        return sql.written("finish", sql.updateReturns(), asked, noCondition(), s -> withLeaseManyWrite(s, ended),
                s -> withLeaseManyWrite(s, ended).returningResult(NAME, HOLDER));
    }

    private static UpdateConditionStep<Record> withLeaseManyWrite(Sql sql, List<Finishing> ended) {
        Table<Record> b = sql.rows(List.of("b_name", "b_holder", "b_passed_ms"),
                ended.stream().<List<?>>map(f -> List.of(f.name(), f.holder(), f.passedMs())).toList());
        return sql.dsl().update(GST_LEASES)
                .set(EXPIRES_AT_MS, 0L)
                .set(UNFINISHED_SLOT_MS, 0L)
                .set(SLOT_MS, takeAlong(sql, b.field("b_passed_ms", Long.class)))
                .from(b)
                .where(NAME.eq(b.field("b_name", String.class)))
                .and(HOLDER.eq(b.field("b_holder", String.class)));
    }

    /** Records the end of each round of {@code ended} without its lease; what it matched is not needed. */
    static void withoutLeaseMany(Sql sql, Collection<Finishing> ended) {
        Table<Record> b = sql.rows(List.of("b_name", "b_slot_ms"),
                ended.stream().<List<?>>map(f -> List.of(f.name(), f.slotMs())).toList());
        sql.dsl().update(GST_LEASES)
                .set(UNFINISHED_SLOT_MS, 0L)
                .from(b)
                .where(NAME.eq(b.field("b_name", String.class)))
                .and(UNFINISHED_SLOT_MS.eq(b.field("b_slot_ms", Long.class)))
                .execute();
    }

    /** {@code passed} when it is later than the instant on record and the database clock has reached it. */
    private static Field<Long> takeAlong(Sql sql, Field<Long> passed) {
        return when(SLOT_MS.lt(passed).and(passed.le(sql.now())), passed).otherwise(SLOT_MS);
    }
}
