package dev.leasecron.lease;

import dev.leasecron.lease.sql.Finishing;
import dev.leasecron.lease.sql.HeldName;
import dev.leasecron.lease.sql.HistoryCompletion;
import dev.leasecron.lease.sql.LeaseStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The statements of many handles at once, one per {@link Leases#MAX_BATCH} names: renewals, releases
 * and the finishes of rounds ending together, each answering every handle as its single-handle
 * counterpart ({@link Handle#renew}, {@link Handle#release}, {@link Handle#finish}) would. Reached
 * through {@link Leases#batches()}.
 */
public final class HandleBatches {
    private final Leases leases;

    HandleBatches(Leases leases) {
        this.leases = leases;
    }

    /**
     * {@link Handle#renew} for many handles of this object in one statement per {@link Leases#MAX_BATCH}:
     * each lease is extended by the lease duration from the database's now when it is still its
     * handle's, under the same condition as a single renewal.
     *
     * @return for each handle, true when renewed, false when lost (expired, taken or released, where
     *     {@code renew} throws {@link LeaseLostException}); or, for the handles of a
     *     statement that failed, its exception, which is not a loss yet
     */
    public BatchResult<Handle, Boolean> renewAll(Collection<Handle> handles) {
        return perHandle(handles, chunk -> leases.store().renewAll(chunk.stream().map(Batches::held).toList()));
    }

    /**
     * {@link Handle#release} for many handles of this object in one statement per {@link Leases#MAX_BATCH}.
     *
     * @return for each handle, true when the name was given back, false when the lease was already
     *     gone (where {@code release} throws {@link LeaseLostException}); or the
     *     failure of the statement for it
     */
    public BatchResult<Handle, Boolean> releaseAll(Collection<Handle> handles) {
        Map<Handle, String> reasons = new LinkedHashMap<>();
        handles.forEach(h -> reasons.put(h, ""));
        return releaseAll(reasons);
    }

    /**
     * {@link #releaseAll(Collection)} for rounds cut short, each with the reason why: the history rows
     * of the handles of instant claims are completed {@code cut_short} by a statement sent just before
     * each release statement (see {@link RoundHistory}).
     */
    public BatchResult<Handle, Boolean> releaseAll(Map<Handle, String> reasons) {
        LeaseStore s = leases.store();
        return perHandle(reasons.keySet(), chunk -> s.releaseAll(chunk.stream().map(Batches::held).toList(),
                leases.history().completions(chunk, h -> new RoundEnd(HistoryOutcome.CUT_SHORT, reasons.get(h))),
                leases.history().failures()));
    }

    private BatchResult<Handle, Boolean> perHandle(Collection<Handle> handles,
            Function<List<Handle>, Set<HeldName>> statement) {
        Map<Handle, Boolean> answered = new HashMap<>();
        Map<Handle, LeaseDatabaseException> failed = new HashMap<>();
        for (List<Handle> chunk : Batches.chunks(handles, Batches.BY_NAME)) {
            try {
                Set<HeldName> found = statement.apply(chunk);
                chunk.forEach(h -> answered.put(h, found.contains(Batches.held(h))));
            } catch (LeaseDatabaseException e) {
                chunk.forEach(h -> failed.put(h, e));
            }
        }
        return new BatchResult<>(Batches.inOrder(handles, answered), Batches.inOrder(handles, failed));
    }

    /**
     * {@link Handle#finish} for many rounds ending together, {@code passed} given per handle, in one
     * statement per {@link Leases#MAX_BATCH} for the rounds still holding their lease, and one more for
     * those that no longer do (known lost, or found so by the first), which records their end
     * without the lease unless a later instant was claimed since.
     *
     * @param passed for each handle of an instant claim of this object, the last instant of its
     *     schedule that had come when its round ended
     * @return for each handle, true where {@code finish} returns: the end is recorded and the name
     *     given back, or the handle is known {@linkplain Handle#lost() lost}, so its end is recorded
     *     without the lease and giving the name back is not tried; false where {@code finish} throws
     *     {@link LeaseLostException}: the name turned out to be no longer its
     *     holder's; or the failure of the statement for it
     * @throws IllegalStateException a handle is not of an instant claim; nothing ran
     */
    public BatchResult<Handle, Boolean> finishAll(Map<Handle, Instant> passed) {
        return finishAll(passed, Map.of());
    }

    /**
     * {@link #finishAll(Map)}, the history row of each round completed as {@code ends} tells (a round
     * not in it: {@link RoundEnd#OK}) by one statement sent just before each finish statement; a
     * history statement that fails is reported and the finish goes on (see {@link RoundHistory}).
     *
     * @throws IllegalStateException a handle is not of an instant claim; nothing ran
     */
    public BatchResult<Handle, Boolean> finishAll(Map<Handle, Instant> passed, Map<Handle, RoundEnd> ends) {
        passed.keySet().forEach(h -> h.slot().orElseThrow(() -> new IllegalStateException(
                "lease " + h.name() + " was not claimed for an instant: nothing to finish")));
        LeaseStore s = leases.store();
        Map<Handle, Boolean> answered = new HashMap<>();
        Map<Handle, LeaseDatabaseException> failed = new HashMap<>();
        for (List<Handle> chunk : Batches.chunks(passed.keySet(), Batches.BY_NAME)) {
            // Known lost: recorded without the lease, and that is all finish does for them.
            List<Handle> knownLost = new ArrayList<>();
            List<Handle> holding = new ArrayList<>();
            for (Handle h : chunk) {
                (h.lost() ? knownLost : holding).add(h);
            }
            List<Handle> foundLost = new ArrayList<>();
            // The whole batch's rows ride with its first statement, whichever that is.
            List<HistoryCompletion> history = leases.history().completions(chunk, h -> ends.getOrDefault(h, RoundEnd.OK));
            try {
                if (!holding.isEmpty()) {
                    Set<HeldName> finished = s.finishAll(holding.stream()
                            .map(h -> finishing(h, passed.get(h))).toList(), history, leases.history().failures());
                    history = List.of();
                    for (Handle h : holding) {
                        if (finished.contains(Batches.held(h))) {
                            answered.put(h, true);
                        } else {
                            foundLost.add(h);
                        }
                    }
                }
                List<Handle> withoutLease = new ArrayList<>(knownLost);
                withoutLease.addAll(foundLost);
                if (!withoutLease.isEmpty()) {
                    s.finishAllWithoutLease(withoutLease.stream().map(h -> finishing(h, passed.get(h))).toList(), history,
                            leases.history().failures());
                    knownLost.forEach(h -> answered.put(h, true));
                    foundLost.forEach(h -> answered.put(h, false));
                }
            } catch (LeaseDatabaseException e) {
                chunk.stream().filter(h -> !answered.containsKey(h)).forEach(h -> failed.put(h, e));
            }
        }
        return new BatchResult<>(Batches.inOrder(passed.keySet(), answered), Batches.inOrder(passed.keySet(), failed));
    }

    private static Finishing finishing(Handle h, Instant passed) {
        return new Finishing(h.name(), h.holder(), h.slot().orElseThrow().toEpochMilli(),
                Objects.requireNonNull(passed, "passed").toEpochMilli());
    }
}
