package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.StoreCalls.bounded;
import static dev.leasecron.lease.sql.StoreCalls.call;

import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryQuery;
import java.util.Collection;
import java.util.List;

/**
 * The round history's statements ({@code gst_history}), strictly for use by the lease package, as
 * {@link LeaseStore}'s: one statement each unless said, failures as
 * {@link dev.leasecron.lease.LeaseDatabaseException}, nothing retried.
 */
public final class HistoryStore {
    private final Sql sql;

    HistoryStore(Sql sql) {
        this.sql = sql;
    }

    /** Creates {@code gst_history} and its index when missing; safe from many replicas at once. */
    public void createIfMissing() {
        call("create gst_history", () -> {
            HistoryStatement.createIfMissing(sql);
            return null;
        });
    }

    public boolean exists() {
        return call("read gst_history", () -> HistoryStatement.exists(sql));
    }

    /** Writes the rows of rounds just claimed; one statement. */
    public void insertClaims(List<HistoryClaim> claims) {
        bounded(claims);
        call("record claims in the history", () -> {
            HistoryRoundStatement.insertClaims(sql, claims);
            return null;
        });
    }

    /** Completes the rows of rounds that ended; one statement. */
    public void complete(List<HistoryCompletion> ended) {
        bounded(ended);
        call("record ends in the history", () -> {
            HistoryRoundStatement.complete(sql, ended);
            return null;
        });
    }

    /**
     * Completes, or writes, the row of a round whose replica stopped before it ended; two autocommit
     * statements, each correct alone (the update touches only a {@code running} row, the insert only a
     * missing one).
     */
    public void completeDeadRound(String name, long instantMs, long term, String detail) {
        call("record a round cut short in the history", () -> {
            HistoryRoundStatement.completeDead(sql, name, instantMs, term, detail);
            return null;
        });
    }

    /** Writes spans of instants not run; one statement, and one more per superseded instant. */
    public void insertSpans(List<HistorySpan> spans) {
        bounded(spans);
        call("record instants not run in the history", () -> {
            HistoryStatement.insertSpans(sql, spans);
            return null;
        });
    }

    /** Writes the history row of a manual round just claimed; one statement. */
    public void insertManual(String name, long requestedMs, long term, String holder, String instance,
            String requestedBy) {
        call("record a manual round in the history", () -> {
            HistoryRoundStatement.insertManual(sql, name, requestedMs, term, holder, instance, requestedBy);
            return null;
        });
    }

    public List<HistoryEntry> entries(HistoryQuery query) {
        return call("read the history", () -> HistoryStatement.entries(sql, query));
    }

    /** The newest ended round of each of {@code names} (at most {@link #MAX_BATCH}) with history. */
    public List<HistoryEntry> lastEnded(Collection<String> names) {
        bounded(names);
        return call("read the history", () -> HistoryStatement.newestPerName(HistoryStatement.lastEnded(sql, names)));
    }

    /** Deletes at most {@code max} rows older than {@code retainMs} by the database clock; one statement. */
    public int purgeOlderThan(long retainMs, int max) {
        return call("purge the history", () -> HistoryStatement.purgeOlderThan(sql, retainMs, max));
    }

    /** Up to {@code max} names with more than {@code keep} history rows. */
    public List<String> namesOver(int keep, int max) {
        return call("purge the history", () -> HistoryStatement.namesOver(sql, keep, max));
    }

    /** Deletes at most {@code max} rows of {@code name} beyond its newest {@code keep}. */
    public int purgeBeyond(String name, int keep, int max) {
        return call("purge the history", () -> HistoryStatement.purgeBeyond(sql, name, keep, max));
    }
}
