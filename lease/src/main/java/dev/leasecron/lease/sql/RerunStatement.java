package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the instants whose round was cut short and that are free to claim again (one statement for
 * every name of a scheduler), and claims one of them again, held by the term found to the instant
 * found.
 */
final class RerunStatement {
    private RerunStatement() {}

    /**
     * The table's cut-short instants, kept for {@code names}: the statement names none of them. Sent
     * with every job's name, every second, it took PostgreSQL 18-25 ms at 10,000 jobs to read the
     * array (elsewhere jOOQ inlined the names as an IN list); reading the few rows that match with no
     * name to compare took it under 2 ms on the same table.
     *
     * <p>Beside the instants free to claim again it returns those whose lease, still held, expires
     * within {@code lookAheadMs} by the database clock, each with how long it has left: the sweep
     * wakes the moment such a lease expires instead of at its next look, which could come after the
     * claim of the job's next instant had given the instant up. A healthy holder renews far ahead of
     * that window, so the rows it adds are those of holders that stopped renewing.
     */
    static List<FoundUnfinished> find(Sql sql, Collection<String> names, long lookAheadMs) {
        Set<String> wanted = names instanceof Set<String> set ? set : new HashSet<>(names);
        String now = sql.nowSql();
        return new BatchStatement().sql("SELECT name, term, slot_ms, expires_at_ms - " + now
                        + " FROM gst_leases WHERE unfinished_slot_ms = slot_ms AND rerun_slot_ms < slot_ms"
                        + " AND expires_at_ms <= " + now + " + " + Math.max(0, lookAheadMs))
                .fetch(sql, r -> new FoundUnfinished(r.getString(1), r.getLong(2), r.getLong(3), r.getLong(4)))
                .stream().filter(f -> wanted.contains(f.name())).toList();
    }

    static int claimAgain(Sql sql, String name, long term, String holder, String instance) {
        int rows = sql.dsl().update(GST_LEASES)
                .set(HOLDER, holder)
                .set(INSTANCE, instance)
                .set(TERM, TERM.plus(1))
                .set(EXPIRES_AT_MS, sql.expiry())
                .set(RERUN_SLOT_MS, SLOT_MS)
                .where(NAME.eq(name))
                .and(TERM.eq(term))
                .and(UNFINISHED_SLOT_MS.eq(SLOT_MS))
                .and(RERUN_SLOT_MS.lt(SLOT_MS))
                .and(EXPIRES_AT_MS.le(sql.now()))
                .execute();
        return Sql.atMostOne(rows, "claim again");
    }

    /**
     * Claims the last instant on record, whose round ended (or which was finished without running),
     * a second time: held by the term read to that instant, and marking it claimed a second time, so
     * no claim of either kind takes it again.
     */
    static int claimLastAgain(Sql sql, String name, long term, long slotMs, String holder, String instance) {
        int rows = sql.dsl().update(GST_LEASES)
                .set(HOLDER, holder)
                .set(INSTANCE, instance)
                .set(TERM, TERM.plus(1))
                .set(EXPIRES_AT_MS, sql.expiry())
                .set(UNFINISHED_SLOT_MS, SLOT_MS)
                .set(RERUN_SLOT_MS, SLOT_MS)
                .where(NAME.eq(name))
                .and(TERM.eq(term))
                .and(SLOT_MS.eq(slotMs))
                .and(UNFINISHED_SLOT_MS.eq(0L))
                .and(RERUN_SLOT_MS.lt(SLOT_MS))
                .and(EXPIRES_AT_MS.le(sql.now()))
                .execute();
        return Sql.atMostOne(rows, "claim the last instant again");
    }
}
