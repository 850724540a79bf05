package dev.leasecron.lease;

import dev.leasecron.lease.sql.HistoryClaim;
import dev.leasecron.lease.sql.HistoryCompletion;
import dev.leasecron.lease.sql.HistorySpan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The round history on the primary database ({@code gst_history}), for operators: every round claimed
 * through {@link InstantSlots} and every span of instants that did not run ({@link #recordNotRun}).
 * Reached through {@link Leases#history()}.
 *
 * <p>A round's row is written {@code running} by a group commit of its own, off the path to the round's
 * start: the claim hands it over and goes on to its next statement. It is completed by one statement
 * per finish or release statement, sent just before it in the same group. The two writes may land in
 * either order (a short round's end can overtake its claim's row), so the completion carries the whole
 * row and writes it when missing, and the claim's write leaves a row already there as it is.
 *
 * <p>Writing the history never fails the lease protocol: a history statement that fails is reported to
 * {@link LeaseListener#historyFailed} and dropped, and the finish or release goes on as its own
 * statement, as it would without the history. Rows may then be missing or stay {@code running}
 * (until a rerun of the instant, or the per-job cap of the purge, removes them); the leases are
 * unaffected.
 */
public final class RoundHistory {
    /** What a rerun writes into the row of the round it runs again. */
    static final String DIED = "its replica stopped before the round ended (or lost its lease without recording its end)";

    /**
     * How long the claims' rows wait for others: the statements of one instant's claims return within
     * milliseconds of each other, and their rows then share a statement.
     */
    static final Duration CLAIMS_WINDOW = Duration.ofMillis(5);

    private final Leases leases;
    private final Coalescer<HistoryClaim, Boolean> claims;
    private volatile boolean enabled = true;

    RoundHistory(Leases leases) {
        this.leases = leases;
        this.claims = new Coalescer<>("history-claims", CLAIMS_WINDOW, this::insertClaims);
    }

    /** Whether rounds and spans are written: on unless {@link Leases#keepHistory} turned it off. */
    public boolean enabled() {
        return enabled;
    }

    void enable(boolean on) {
        enabled = on;
    }

    /**
     * Whether the history table exists: false when no replica with history on has started here.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public boolean exists() {
        return leases.store().history().exists();
    }

    /**
     * The rows {@code query} asks for, newest instant first (a round before the span of the same instant).
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public List<HistoryEntry> entries(HistoryQuery query) {
        return leases.store().history().entries(query);
    }

    /**
     * For each of {@code names} with history, its newest row that is a round which ended (not running):
     * the "last outcome" operators ask for. One statement per {@link Leases#MAX_BATCH} names.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public Map<String, HistoryEntry> lastEnded(Collection<String> names) {
        Map<String, HistoryEntry> last = new LinkedHashMap<>();
        for (List<String> chunk : Batches.chunks(names, Comparator.naturalOrder())) {
            leases.store().history().lastEnded(chunk).forEach(e -> last.put(e.name(), e));
        }
        return last;
    }

    /**
     * Records spans of instants not run, one row each, in one statement per {@link Leases#MAX_BATCH}.
     * A span whose first instant already has a span row is not written again (two replicas noticing
     * the same span leave one row). Does nothing when the history is off; a failure is reported to
     * {@link LeaseListener#historyFailed}, never thrown.
     */
    public void recordNotRun(Collection<NotRun> spans) {
        if (!enabled || spans.isEmpty()) {
            return;
        }
        String instance = leases.instance();
        List<HistorySpan> rows = spans.stream().map(s -> new HistorySpan(s.name(), s.first().toEpochMilli(),
                s.last().toEpochMilli(), s.count(), s.outcome().label(), instance, s.reason())).toList();
        for (List<HistorySpan> chunk : Batches.chunks(rows, Comparator.comparing(HistorySpan::name)
                .thenComparingLong(HistorySpan::firstMs).thenComparing(HistorySpan::outcome))) {
            quietly(() -> leases.store().history().insertSpans(chunk));
        }
    }

    /**
     * Deletes at most {@code max} rows whose instant is older than {@code retain} by the database
     * clock: one statement.
     *
     * @return how many it deleted; fewer than {@code max} means none is left
     * @throws LeaseDatabaseException the database did not answer
     */
    public int purgeOlderThan(Duration retain, int max) {
        return leases.store().history().purgeOlderThan(retain.toMillis(), max);
    }

    /**
     * Up to {@code max} names holding more than {@code keep} rows, for {@link #purgeBeyond}.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public List<String> namesOver(int keep, int max) {
        return leases.store().history().namesOver(keep, max);
    }

    /**
     * Deletes at most {@code max} rows of {@code name} beyond its newest {@code keep}: two statements.
     *
     * @return how many it deleted
     * @throws LeaseDatabaseException the database did not answer
     */
    public int purgeBeyond(String name, int keep, int max) {
        if (keep < 1) {
            throw new IllegalArgumentException("keep at least 1 row per name, not " + keep);
        }
        return leases.store().history().purgeBeyond(name, keep, max);
    }

    /**
     * Hands the rows of rounds just claimed to the group commit that writes them, and keeps each row on
     * its handle for the round's completion. Returns at once; a write that fails is reported to
     * {@link LeaseListener#historyFailed}.
     */
    void claimed(Collection<Handle> handles, Function<String, HistoryTrigger> trigger) {
        if (!enabled || handles.isEmpty()) {
            return;
        }
        long startedMs = leases.clock().known() ? leases.clock().now().toEpochMilli() : 0;
        for (Handle h : handles) {
            HistoryClaim row = row(h, trigger.apply(h.name()), startedMs);
            h.historyRow(row);
            claims.submit(row);
        }
    }

    /** The row of {@code h}'s round: a rerun's trigger is {@link HistoryTrigger#RERUN} whatever {@code trigger} says. */
    private static HistoryClaim row(Handle h, HistoryTrigger trigger, long startedMs) {
        return new HistoryClaim(h.name(), h.slot().orElseThrow().toEpochMilli(), h.term(), h.holder(), h.instance(),
                (h.rerun() ? HistoryTrigger.RERUN : trigger).label(), h.rerun(), startedMs);
    }

    private BatchResult<HistoryClaim, Boolean> insertClaims(List<HistoryClaim> rows) {
        Map<HistoryClaim, Boolean> written = new HashMap<>();
        Map<HistoryClaim, LeaseDatabaseException> failed = new HashMap<>();
        for (List<HistoryClaim> chunk : Batches.chunks(rows, Comparator.comparing(HistoryClaim::name))) {
            try {
                leases.store().history().insertClaims(chunk);
                chunk.forEach(row -> written.put(row, true));
            } catch (LeaseDatabaseException e) {
                leases.historyFailed(e);
                chunk.forEach(row -> failed.put(row, e));
            }
        }
        return new BatchResult<>(written, failed);
    }

    /** The rerun of {@code u} was claimed as {@code rerun}: completes the dead round's row, then writes its own. */
    void rerunClaimed(Unfinished u, Handle rerun) {
        if (!enabled) {
            return;
        }
        quietly(() -> leases.store().history().completeDeadRound(u.name(), u.slot().toEpochMilli(), u.term(), DIED));
        claimed(List.of(rerun), name -> HistoryTrigger.RERUN);
    }

    /**
     * The completions of {@code handles}' rows, each as {@code end} tells; empty when the history is off.
     * A handle of an instant whose row was never handed over (claimed while the history was off) is
     * completed as a scheduled round of unknown start.
     */
    List<HistoryCompletion> completions(Collection<Handle> handles, Function<Handle, RoundEnd> end) {
        if (!enabled) {
            return List.of();
        }
        List<HistoryCompletion> completions = new ArrayList<>(handles.size());
        for (Handle h : handles) {
            if (h.slot().isEmpty()) {
                continue;
            }
            HistoryClaim row = h.historyRow();
            if (row == null) {
                row = row(h, HistoryTrigger.SCHEDULED, 0);
            }
            RoundEnd e = end.apply(h);
            completions.add(new HistoryCompletion(row, e.outcome().label(), e.detail()));
        }
        return completions;
    }

    /** Hears that a history statement failed. */
    Consumer<LeaseDatabaseException> failures() {
        return leases::historyFailed;
    }

    private void quietly(Runnable write) {
        try {
            write.run();
        } catch (LeaseDatabaseException e) {
            leases.historyFailed(e);
        }
    }
}
