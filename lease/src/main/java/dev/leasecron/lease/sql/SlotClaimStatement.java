package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jooq.Record6;

/**
 * Claims an instant under a name: read the row, then, when the lease is free and the instant is past
 * the one on record, write guarded by what was read. The term read makes the pair as exclusive as one
 * statement: every claim moves it, so of replicas that read the same row, one write matches. The
 * slot columns are compared too, so a round that finished between the read and the write (which does
 * not move the term) makes the write miss instead of giving up an instant that has run.
 *
 * <p>The batch forms claim one instant for many names with the same per-row outcome: one read of
 * all their rows, one write whose WHERE is the single write's, row by row, against a derived table of
 * (name, token, term, slot read, unfinished slot read); one multi-row insert for the names with no row
 * yet. Which rows were written comes back per name, see {@link Sql#written}.
 *
 * <p>On PostgreSQL the batch read and write are one statement instead ({@link #claimFree}): its read
 * locks the rows it finds free, in name order, and the write takes exactly those.
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

    static Map<String, SlotRow> readMany(Sql sql, Collection<String> names) {
        Map<String, SlotRow> rows = new HashMap<>();
        new BatchStatement()
                .sql("SELECT name, term, slot_ms, unfinished_slot_ms, rerun_slot_ms, expires_at_ms, " + sql.nowSql()
                        + " FROM gst_leases WHERE name IN ")
                .list(names)
                .fetch(sql, r -> rows.put(r.getString(1),
                        new SlotRow(r.getLong(2), r.getLong(3), r.getLong(4), r.getLong(5), r.getLong(6), r.getLong(7))));
        return rows;
    }

    /** The names among {@code claims} whose write matched: claimed, each by its own token. */
    static Set<String> claimMany(Sql sql, List<SlotClaim> claims, String instance, long slotMs) {
        List<HeldName> asked = claims.stream().map(c -> new HeldName(c.name(), c.holder())).toList();
        BatchStatement write = JoinedUpdate.of(sql.dialect(),
                List.of("b_name", "b_holder", "b_term", "b_slot_ms", "b_unfinished_slot_ms"),
                claims.stream().<List<?>>map(c -> List.of(c.name(), c.holder(), c.read().term(), c.read().slotMs(),
                        c.read().unfinishedSlotMs())).toList(),
                set -> set.sql("holder = b.b_holder, instance = ").value(instance)
                        .sql(", term = term + 1, expires_at_ms = " + sql.expirySql() + ", slot_ms = ").value(slotMs)
                        .sql(", unfinished_slot_ms = ").value(slotMs),
                where -> where.sql("name = b.b_name AND term = b.b_term AND slot_ms = b.b_slot_ms"
                                + " AND unfinished_slot_ms = b.b_unfinished_slot_ms AND slot_ms < ").value(slotMs)
                        .sql(" AND expires_at_ms <= " + sql.nowSql()));
        return names(sql.written("claim an instant", asked, "", write));
    }

    /**
     * Claims {@code slotMs} for every name of {@code tokens} (name to the token minted for it) whose
     * lease is free and whose instant on record is earlier, in one PostgreSQL statement: a read that
     * locks those rows in name order ({@code FOR UPDATE}), the write of exactly the rows it locked, and
     * every row's state before. The lock does what the term compared on a separate write does: of
     * replicas claiming the same name, one writes; the others find it held. Locking in name order means
     * claims of overlapping batches never wait on each other in a circle. Names and tokens travel as two
     * arrays, so the statement's text is the same for every batch and PostgreSQL parses a handful of
     * values, not one per row. Built ahead of the instant, run by {@link #claimFree}.
     *
     * <p>With {@code skipLocked} the read passes over the rows another transaction holds instead of
     * waiting for them ({@code SKIP LOCKED}), and reports them {@linkplain SlotOutcome#skipped skipped}:
     * replicas claiming the same instant then each take the rows the others have not locked yet, and
     * none waits for another's statement to end. Without it the read waits for a claim or an end under
     * way and then sees its outcome, so nothing is skipped.
     */
    static FreeSlotClaim prepareFree(Sql sql, Map<String, String> tokens, String instance, long slotMs,
            boolean skipLocked) {
        String now = sql.nowSql();
        BatchStatement statement = new BatchStatement()
                .sql("WITH free AS (SELECT l.name, l.term, l.slot_ms, l.unfinished_slot_ms, l.rerun_slot_ms,"
                        + " l.expires_at_ms, b.b_holder FROM gst_leases l JOIN ")
                .rows(Dialect.POSTGRES, List.of("b_name", "b_holder"),
                        tokens.entrySet().stream().<List<?>>map(e -> List.of(e.getKey(), e.getValue())).toList())
                .sql(" ON l.name = b.b_name WHERE l.expires_at_ms <= " + now + " AND l.slot_ms < ").value(slotMs)
                .sql(" ORDER BY l.name FOR UPDATE OF l" + (skipLocked ? " SKIP LOCKED" : ""))
                .sql("), claimed AS (UPDATE gst_leases SET holder = f.b_holder, instance = ").value(instance)
                .sql(", term = gst_leases.term + 1, expires_at_ms = " + sql.expirySql() + ", slot_ms = ").value(slotMs)
                .sql(", unfinished_slot_ms = ").value(slotMs)
                .sql(" FROM free f WHERE gst_leases.name = f.name RETURNING f.*)"
                        + " SELECT c.name, c.term, c.slot_ms, c.unfinished_slot_ms, c.rerun_slot_ms, c.expires_at_ms, " + now
                        + ", TRUE, FALSE FROM claimed c UNION ALL SELECT l.name, l.term, l.slot_ms, l.unfinished_slot_ms,"
                        + " l.rerun_slot_ms, l.expires_at_ms, " + now + ", FALSE, ");
        if (skipLocked) {
            // Free as the statement's snapshot has it, yet not locked by its read: another transaction held it.
            statement.sql("l.expires_at_ms <= " + now + " AND l.slot_ms < ").value(slotMs);
        } else {
            statement.sql("FALSE");
        }
        // The names not claimed by a hashed lookup in the claimed rows: the generic plan, which takes an
        // array for ten rows, joined them to the rows read by a nested loop over the claimed rows, a
        // batch's size squared.
        statement.sql(" FROM gst_leases l").joinNames("l.name", tokens.keySet())
                .sql(" WHERE l.name NOT IN (SELECT name FROM claimed)");
        return new FreeSlotClaim(tokens, statement);
    }

    /**
     * Runs a claim {@link #prepareFree} built.
     *
     * @return the outcome per name that has a row; a name without one is not in the map
     */
    static Map<String, SlotOutcome> claimFree(Sql sql, FreeSlotClaim claim) {
        Map<String, SlotOutcome> outcomes = new HashMap<>();
        claim.statement().fetch(sql, r -> outcomes.put(r.getString(1), new SlotOutcome(
                new SlotRow(r.getLong(2), r.getLong(3), r.getLong(4), r.getLong(5), r.getLong(6), r.getLong(7)),
                r.getBoolean(8), r.getBoolean(9))));
        return outcomes;
    }

    /** The names among {@code fresh} (name to token) that this insert created: nobody was first. */
    static Set<String> insertMany(Sql sql, Map<String, String> fresh, String instance, long slotMs) {
        List<HeldName> asked = fresh.entrySet().stream().map(e -> new HeldName(e.getKey(), e.getValue())).toList();
        boolean mysql = sql.dialect() == Dialect.MYSQL || sql.dialect() == Dialect.MARIADB;
        BatchStatement insert = new BatchStatement().sql(mysql ? "INSERT IGNORE INTO" : "INSERT INTO")
                .sql(" gst_leases (name, holder, instance, term, expires_at_ms, slot_ms, unfinished_slot_ms) VALUES ");
        String separator = "";
        for (HeldName h : asked) {
            insert.sql(separator + "(").value(h.name()).sql(", ").value(h.holder()).sql(", ").value(instance)
                    .sql(", 1, " + sql.expirySql() + ", ").value(slotMs).sql(", ").value(slotMs).sql(")");
            separator = ", ";
        }
        if (!mysql) {
            insert.sql(" ON CONFLICT DO NOTHING");
        }
        return names(sql.written("claim an instant: insert", asked, "", insert));
    }

    private static Set<String> names(Set<HeldName> written) {
        Set<String> names = new HashSet<>();
        written.forEach(h -> names.add(h.name()));
        return names;
    }
}
