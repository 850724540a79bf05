package dev.leasecron.lease.sql;

import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryQuery;
import dev.leasecron.lease.HistoryTrigger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The statements of {@code gst_history} but the rounds' own rows ({@link HistoryRoundStatement}): the
 * table, the spans not run, the reads and the purge. One row per round claimed (key: name, instant, term, which
 * the claim moves, so a round and its rerun are two rows) and one per span of instants not run (term
 * 0). Written as text through {@link BatchStatement}, as the lease table's batch statements are: they
 * run once per batch on the round's path, and their size grows with it.
 *
 * <p>Every insert ignores a row whose key exists: a span two replicas record, or a claim's row a rerun
 * wrote first, stays the first one written.
 */
final class HistoryStatement {
    static final String TABLE = "gst_history";
    private static final String COLUMNS = "name, instant_ms, last_instant_ms, instants, outcome, trigger_kind, term,"
            + " holder, instance, rerun, requested_by, started_ms, ended_ms, fire_delay_ms, duration_ms, detail";
    private static final String ENDED = "('ok', 'failed', 'timeout', 'cut_short')";
    static final String RUNNING = HistoryOutcome.RUNNING.label();

    private HistoryStatement() {}

    static void createIfMissing(Sql sql) {
        boolean mysql = mysql(sql);
        String columns = "name VARCHAR(191) NOT NULL, instant_ms BIGINT NOT NULL, term BIGINT NOT NULL,"
                + " last_instant_ms BIGINT NOT NULL, instants BIGINT NOT NULL, outcome VARCHAR(16) NOT NULL,"
                + " trigger_kind VARCHAR(16) NOT NULL DEFAULT '', holder VARCHAR(32) NOT NULL DEFAULT '',"
                + " instance VARCHAR(191) NOT NULL DEFAULT '', rerun SMALLINT NOT NULL DEFAULT 0,"
                + " requested_by VARCHAR(191) NOT NULL DEFAULT '', started_ms BIGINT NOT NULL DEFAULT 0,"
                + " ended_ms BIGINT NOT NULL DEFAULT 0, fire_delay_ms BIGINT NOT NULL DEFAULT 0,"
                + " duration_ms BIGINT NOT NULL DEFAULT 0, detail TEXT NOT NULL,"
                // The key serves the completion's upsert, the reads of one job newest first and the per-job cap
                // of the purge.
                + " PRIMARY KEY (name, instant_ms, term)";
        SideTables.create(sql, TABLE, "name", () -> {
            if (mysql) {
                // The index on the instant serves the purge by age and the reads of every job newest first.
                run(sql, "CREATE TABLE IF NOT EXISTS " + TABLE + " (" + columns + ", KEY gst_history_instant (instant_ms))"
                        + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
            } else {
                run(sql, "CREATE TABLE IF NOT EXISTS " + TABLE + " (" + columns + ")");
                run(sql, "CREATE INDEX IF NOT EXISTS gst_history_instant ON " + TABLE + " (instant_ms)");
                // A partial index of the rows still running, which databases made by 0.1 builds before the
                // completion became an upsert by key still have: no statement reads it, every write updates it.
                run(sql, "DROP INDEX IF EXISTS gst_history_running");
            }
        });
    }

    static boolean exists(Sql sql) {
        return SideTables.exists(sql, TABLE, "name");
    }

    /**
     * Spans of instants not run, one row each. A superseded instant's round, still {@code running}
     * (its replica died, no rerun came), is completed {@code cut_short} by the same call.
     */
    static void insertSpans(Sql sql, List<HistorySpan> spans) {
        BatchStatement insert = insertInto(sql, "name, instant_ms, term, last_instant_ms, instants, outcome, instance, detail");
        String separator = "";
        for (HistorySpan span : spans) {
            insert.sql(separator + "(").value(span.name()).sql(", ").value(span.firstMs()).sql(", 0, ")
                    .value(span.lastMs()).sql(", ").value(span.count()).sql(", ").value(span.outcome()).sql(", ")
                    .value(span.instance()).sql(", ").value(HistoryText.bound(span.detail())).sql(")");
            separator = ", ";
        }
        onConflictDoNothing(sql, insert).execute(sql);
        for (HistorySpan span : spans) {
            if (span.outcome().equals(HistoryOutcome.SUPERSEDED.label())) {
                new BatchStatement().sql("UPDATE " + TABLE + " SET outcome = '" + HistoryOutcome.CUT_SHORT.label()
                                + "', detail = ").value("its replica stopped before the round ended; superseded since")
                        .sql(" WHERE name = ").value(span.name()).sql(" AND instant_ms = ").value(span.firstMs())
                        .sql(" AND outcome = '" + RUNNING + "'").execute(sql);
            }
        }
    }

    static List<HistoryEntry> entries(Sql sql, HistoryQuery query) {
        BatchStatement s = new BatchStatement().sql("SELECT " + COLUMNS + " FROM " + TABLE + " WHERE 1 = 1");
        if (!query.names().isEmpty()) {
            s.sql(" AND name IN ").list(List.copyOf(query.names()));
        }
        if (!query.outcomes().isEmpty()) {
            s.sql(" AND outcome IN ").list(query.outcomes().stream().map(HistoryOutcome::label).toList());
        }
        query.since().ifPresent(since -> s.sql(" AND instant_ms >= ").value(since.toEpochMilli()));
        s.sql(" ORDER BY instant_ms DESC, term DESC LIMIT ").value((long) query.limit());
        return s.fetch(sql, HistoryStatement::entry);
    }

    /** For each of {@code names}, the rows of its newest ended instant (a round and its rerun share one). */
    static List<HistoryEntry> lastEnded(Sql sql, Collection<String> names) {
        return new BatchStatement().sql("SELECT " + COLUMNS + " FROM " + TABLE + " h WHERE h.name IN ")
                .list(names).sql(" AND h.outcome IN " + ENDED + " AND h.instant_ms = (SELECT MAX(i.instant_ms) FROM "
                        + TABLE + " i WHERE i.name = h.name AND i.outcome IN " + ENDED + ")")
                .fetch(sql, HistoryStatement::entry);
    }

    /**
     * Deletes at most {@code max} ended rows whose instant is older than {@code retainMs} by the database
     * clock. A {@code running} row is kept, however old: a round may run longer than the retention,
     * and its end must find its row (rows left {@code running} by a lost write go with the per-job cap).
     */
    static int purgeOlderThan(Sql sql, long retainMs, int max) {
        return BoundedDelete.run(sql, TABLE, new BatchStatement().sql("instant_ms < " + sql.nowSql() + " - ").value(retainMs)
                .sql(" AND outcome <> '" + RUNNING + "'"), "instant_ms", max);
    }

    /** Up to {@code max} names with more than {@code keep} rows. */
    static List<String> namesOver(Sql sql, int keep, int max) {
        return new BatchStatement().sql("SELECT name FROM " + TABLE + " GROUP BY name HAVING COUNT(*) > ")
                .value((long) keep).sql(" LIMIT ").value((long) max).fetch(sql, r -> r.getString(1));
    }

    /** Deletes at most {@code max} rows of {@code name} beyond its newest {@code keep}. */
    static int purgeBeyond(Sql sql, String name, int keep, int max) {
        List<long[]> edge = new BatchStatement().sql("SELECT instant_ms, term FROM " + TABLE + " WHERE name = ").value(name)
                .sql(" ORDER BY instant_ms DESC, term DESC LIMIT 1 OFFSET ").value((long) keep - 1)
                .fetch(sql, r -> new long[] {r.getLong(1), r.getLong(2)});
        if (edge.isEmpty()) {
            return 0;
        }
        long instant = edge.getFirst()[0];
        long term = edge.getFirst()[1];
        return BoundedDelete.run(sql, TABLE, new BatchStatement().sql("name = ").value(name).sql(" AND (instant_ms < ").value(instant)
                .sql(" OR (instant_ms = ").value(instant).sql(" AND term < ").value(term).sql("))"), "instant_ms", max);
    }

    private static HistoryEntry entry(ResultSet r) throws SQLException {
        HistoryOutcome outcome = HistoryOutcome.ofLabel(r.getString(5));
        String trigger = r.getString(6);
        long started = r.getLong(12);
        long ended = r.getLong(13);
        return new HistoryEntry(r.getString(1), Instant.ofEpochMilli(r.getLong(2)), Instant.ofEpochMilli(r.getLong(3)),
                r.getLong(4), outcome,
                trigger == null || trigger.isEmpty() ? Optional.empty() : Optional.of(HistoryTrigger.valueOf(
                        trigger.toUpperCase(java.util.Locale.ROOT))),
                r.getLong(7), r.getString(8), r.getString(9), r.getLong(10) != 0, r.getString(11),
                started == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(started)),
                ended == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(ended)),
                started == 0 ? Optional.empty() : Optional.of(Duration.ofMillis(Math.max(0, r.getLong(14)))),
                ended == 0 || started == 0 ? Optional.empty() : Optional.of(Duration.ofMillis(Math.max(0, r.getLong(15)))),
                r.getString(16));
    }

    static boolean mysql(Sql sql) {
        return sql.dialect() == Dialect.MYSQL || sql.dialect() == Dialect.MARIADB;
    }

    static BatchStatement insertInto(Sql sql, String columns) {
        return new BatchStatement().sql((mysql(sql) ? "INSERT IGNORE INTO " : "INSERT INTO ") + TABLE + " (" + columns
                + ") VALUES ");
    }

    static BatchStatement onConflictDoNothing(Sql sql, BatchStatement insert) {
        return mysql(sql) ? insert : insert.sql(" ON CONFLICT DO NOTHING");
    }

    private static void run(Sql sql, String text) {
        new BatchStatement().sql(text).execute(sql);
    }

    static List<HistoryEntry> newestPerName(List<HistoryEntry> rows) {
        java.util.Map<String, HistoryEntry> newest = new java.util.LinkedHashMap<>();
        for (HistoryEntry e : rows) {
            newest.merge(e.name(), e, (a, b) -> b.term() > a.term() ? b : a);
        }
        return new ArrayList<>(newest.values());
    }
}
