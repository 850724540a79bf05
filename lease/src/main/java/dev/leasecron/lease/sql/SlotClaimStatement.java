package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import java.util.Optional;
import org.jooq.Record6;

/**
 * Claims an instant under a name: read the row, then, when the lease is free and the instant is past
 * the one on record, write guarded by what was read. The term read makes the pair as exclusive as one
 * statement: every claim moves it, so of replicas that read the same row, one write matches. The
 * slot columns are compared too, so a round that finished between the read and the write (which does
 * not move the term) makes the write miss instead of giving up an instant that has run.
 */
final class SlotClaimStatement {
    private SlotClaimStatement() {}

    static Optional<SlotRow> read(Sql sql, String name) {
        Record6<Long, Long, Long, Long, Long, Long> r = sql.dsl()
                .select(TERM, SLOT_MS, UNFINISHED_SLOT_MS, RERUN_SLOT_MS, EXPIRES_AT_MS, sql.now())
                .from(GST_LEASES)
                .where(NAME.eq(name))
                .fetchOne();
        if (r == null) {
            return Optional.empty();
        }
        return Optional.of(new SlotRow(r.value1(), r.value2(), r.value3(), r.value4(), r.value5(), r.value6()));
    }

    static int claim(Sql sql, String name, String holder, String instance, long slotMs, SlotRow read) {
        int rows = sql.dsl().update(GST_LEASES)
                .set(HOLDER, holder)
                .set(INSTANCE, instance)
                .set(TERM, TERM.plus(1))
                .set(EXPIRES_AT_MS, sql.expiry())
                .set(SLOT_MS, slotMs)
                .set(UNFINISHED_SLOT_MS, slotMs)
                .where(NAME.eq(name))
                .and(TERM.eq(read.term()))
                .and(SLOT_MS.eq(read.slotMs()))
                .and(UNFINISHED_SLOT_MS.eq(read.unfinishedSlotMs()))
                .and(SLOT_MS.lt(slotMs))
                .and(EXPIRES_AT_MS.le(sql.now()))
                .execute();
        return Sql.atMostOne(rows, "claim an instant");
    }

    static int insertNew(Sql sql, String name, String holder, String instance, long slotMs) {
        int rows = sql.dsl().insertInto(GST_LEASES)
                .set(NAME, name)
                .set(HOLDER, holder)
                .set(INSTANCE, instance)
                .set(TERM, 1L)
                .set(EXPIRES_AT_MS, sql.expiry())
                .set(SLOT_MS, slotMs)
                .set(UNFINISHED_SLOT_MS, slotMs)
                .onConflictDoNothing()
                .execute();
        return Sql.atMostOne(rows, "claim an instant: insert");
    }
}
