package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.HistoryStatement.RUNNING;
import static dev.leasecron.lease.sql.HistoryStatement.TABLE;
import static dev.leasecron.lease.sql.HistoryStatement.insertInto;
import static dev.leasecron.lease.sql.HistoryStatement.mysql;
import static dev.leasecron.lease.sql.HistoryStatement.onConflictDoNothing;

import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryTrigger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The statements of the rounds' rows in {@code gst_history}, on the round's path: written
 * {@code running} after the claim, completed at the end, whichever lands first writing the row, and a
 * round whose replica stopped before it ended completed {@code cut_short}. Keyed, as every history row,
 * by name, instant and term (see {@link HistoryStatement}).
 */
final class HistoryRoundStatement {
    private static final Comparator<HistoryCompletion> KEY_ORDER = Comparator.comparing((HistoryCompletion c) -> c.round().name())
            .thenComparingLong(c -> c.round().instantMs()).thenComparingLong(c -> c.round().term());

    /** The columns a round's row is written with, up to its fire delay: see {@link #roundSelect}. */
    private static final String ROUND_COLUMNS = "name, instant_ms, term, last_instant_ms, instants, outcome, trigger_kind,"
            + " holder, instance, rerun, started_ms, fire_delay_ms";
    /**
     * The rounds travel as a derived table (on PostgreSQL one array per column), so a statement's text
     * is the same for any number of rows: the server parses a handful of values, not 13 per row, and
     * the driver prepares it once per connection.
     */
    private static final List<String> ROUND_INPUT = List.of("b_name", "b_instant_ms", "b_term", "b_outcome", "b_trigger",
            "b_holder", "b_instance", "b_rerun", "b_started_ms");
    /** A completion's input: a round's, and the detail of its end. */
    private static final List<String> COMPLETION_INPUT = Stream.concat(ROUND_INPUT.stream(), Stream.of("b_detail")).toList();
    /** SQLite reads an upsert's {@code ON} after {@code INSERT ... SELECT ... FROM t} as a join's without a WHERE. */
    private static final String WHERE_SELECTED = " WHERE 1 = 1";

    private HistoryRoundStatement() {}

    /**
     * The rows of rounds just claimed, {@code running}, started when their claims observed the database
     * clock. A row already there (its round's completion came first) is left as it is.
     */
    static void insertClaims(Sql sql, List<HistoryClaim> claims) {
        BatchStatement insert = new BatchStatement().sql((mysql(sql) ? "INSERT IGNORE INTO " : "INSERT INTO ") + TABLE
                + " (" + ROUND_COLUMNS + ", detail) SELECT " + roundSelect(sql) + ", '' FROM ")
                .rows(sql.dialect(), ROUND_INPUT, claims.stream().<List<?>>map(c -> roundInput(c, RUNNING)).toList())
                .sql(WHERE_SELECTED);
        onConflictDoNothing(sql, insert).execute(sql);
    }

    /**
     * The row of a manual round just claimed, {@code running}: its instant is when it was requested,
     * so its fire delay is how long the request waited for the job's lease.
     */
    static void insertManual(Sql sql, String name, long requestedMs, long term, String holder, String instance,
            String requestedBy) {
        String now = sql.nowSql();
        BatchStatement insert = insertInto(sql, "name, instant_ms, term, last_instant_ms, instants, outcome, trigger_kind,"
                + " holder, instance, rerun, requested_by, started_ms, fire_delay_ms, detail")
                .sql("(").value(name).sql(", ").value(requestedMs).sql(", ").value(term).sql(", ").value(requestedMs)
                .sql(", 1, '" + RUNNING + "', '" + HistoryTrigger.MANUAL.label() + "', ").value(holder).sql(", ")
                .value(instance).sql(", 0, ").value(HistoryText.bound(requestedBy)).sql(", " + now + ", " + now + " - ")
                .value(requestedMs).sql(", '')");
        onConflictDoNothing(sql, insert).execute(sql);
    }

    /**
     * Completes the rows of rounds that ended, ended and timed now by the database clock, writing the
     * whole row where its claim's write has not landed: the claim's rows go out in a group commit of
     * their own, which a short round's end may overtake. A row is completed once: one no longer
     * {@code running} (completed by a rerun, say) is left as it is.
     */
    static void complete(Sql sql, List<HistoryCompletion> ended) {
        String now = sql.nowSql();
        BatchStatement upsert = new BatchStatement().sql("INSERT INTO " + TABLE + " (" + ROUND_COLUMNS
                        + ", detail, ended_ms, duration_ms) SELECT " + roundSelect(sql) + ", b.b_detail, " + now
                        + ", CASE WHEN b.b_started_ms = 0 THEN 0 ELSE " + now + " - b.b_started_ms END FROM ")
                .rows(sql.dialect(), COMPLETION_INPUT, inKeyOrder(ended).stream().<List<?>>map(c -> {
                    List<Object> row = roundInput(c.round(), c.outcome());
                    row.add(HistoryText.bound(c.detail()));
                    return row;
                }).toList())
                .sql(WHERE_SELECTED);
        String running = "'" + RUNNING + "'";
        if (mysql(sql)) {
            // The assignments see the values assigned before them: the outcome, which the others test,
            // goes last.
            String ifRunning = "IF(outcome = " + running + ", ";
            upsert.sql(" ON DUPLICATE KEY UPDATE detail = " + ifRunning + "VALUES(detail), detail), duration_ms = "
                    + ifRunning + "IF(started_ms = 0, 0, VALUES(ended_ms) - started_ms), duration_ms), ended_ms = "
                    + ifRunning + "VALUES(ended_ms), ended_ms), outcome = " + ifRunning + "VALUES(outcome), outcome)");
        } else {
            upsert.sql(" ON CONFLICT (name, instant_ms, term) DO UPDATE SET outcome = excluded.outcome,"
                    + " detail = excluded.detail, ended_ms = excluded.ended_ms, duration_ms = CASE WHEN " + TABLE
                    + ".started_ms = 0 THEN 0 ELSE excluded.ended_ms - " + TABLE + ".started_ms END WHERE " + TABLE
                    + ".outcome = " + running);
        }
        upsert.execute(sql);
    }

    /**
     * A round's row up to its fire delay, from a derived table of {@link #ROUND_INPUT}: name, instant,
     * term, last instant, instants, outcome, trigger, holder, instance, rerun, start, fire delay; the
     * start is the write's now when the claim's is not known (0).
     */
    private static String roundSelect(Sql sql) {
        String started = "CASE WHEN b.b_started_ms = 0 THEN " + sql.nowSql() + " ELSE b.b_started_ms END";
        return "b.b_name, b.b_instant_ms, b.b_term, b.b_instant_ms, 1, b.b_outcome, b.b_trigger, b.b_holder, b.b_instance,"
                + " b.b_rerun, " + started + ", " + started + " - b.b_instant_ms";
    }

    /** A round's values, in the order of {@link #ROUND_INPUT}. */
    private static List<Object> roundInput(HistoryClaim c, String outcome) {
        return new ArrayList<>(List.of(c.name(), c.instantMs(), c.term(), outcome, c.trigger(), c.holder(), c.instance(),
                c.rerun() ? 1L : 0L, c.startedMs()));
    }

    /**
     * One completion per row, in key order: PostgreSQL refuses an upsert that meets the same row twice,
     * and concurrent upserts taking their rows in one order do not deadlock on each other.
     */
    private static List<HistoryCompletion> inKeyOrder(List<HistoryCompletion> ended) {
        List<HistoryCompletion> sorted = new ArrayList<>(ended);
        sorted.sort(KEY_ORDER);
        List<HistoryCompletion> once = new ArrayList<>(sorted.size());
        for (HistoryCompletion c : sorted) {
            if (once.isEmpty() || KEY_ORDER.compare(once.getLast(), c) != 0) {
                once.add(c);
            }
        }
        return once;
    }


    /**
     * The row of a round whose replica stopped before it ended, completed {@code cut_short} with
     * {@code detail} where it is still {@code running}, or written so when it is missing: its claim's
     * write failed, or came from before the history was kept. Run before the rerun's own row.
     */
    static void completeDead(Sql sql, String name, long instantMs, long term, String detail) {
        new BatchStatement().sql("UPDATE " + TABLE + " SET outcome = '" + HistoryOutcome.CUT_SHORT.label()
                        + "', detail = ").value(HistoryText.bound(detail))
                .sql(" WHERE name = ").value(name).sql(" AND instant_ms = ").value(instantMs)
                .sql(" AND term = ").value(term).sql(" AND outcome = '" + RUNNING + "'").execute(sql);
        BatchStatement insert = insertInto(sql, "name, instant_ms, term, last_instant_ms, instants, outcome, trigger_kind, detail")
                .sql("(").value(name).sql(", ").value(instantMs).sql(", ").value(term).sql(", ").value(instantMs)
                .sql(", 1, '" + HistoryOutcome.CUT_SHORT.label() + "', '" + HistoryTrigger.SCHEDULED.label() + "', ")
                .value(HistoryText.bound(detail)).sql(")");
        onConflictDoNothing(sql, insert).execute(sql);
    }
}
