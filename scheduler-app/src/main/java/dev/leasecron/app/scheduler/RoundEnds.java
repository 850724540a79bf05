package dev.leasecron.app.scheduler;

import dev.leasecron.lease.BatchResult;
import dev.leasecron.lease.Coalescer;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseLostException;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.RoundEnd;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The finishes and releases of this replica's rounds, each kind a group commit ({@link Coalescer}):
 * the rounds of jobs due at one instant end within milliseconds of each other, and share one statement
 * instead of sending one each. The round's thread waits for its own answer.
 */
final class RoundEnds {
    private record Ending(Handle handle, Instant passed, RoundEnd end) {}

    private record Cut(Handle handle, String reason) {}

    private final Coalescer<Ending, Boolean> finishes;
    private final Coalescer<Cut, Boolean> releases;

    /** @param window how long an end waits for the others ending with it */
    RoundEnds(Leases leases, Duration window) {
        this.finishes = new Coalescer<>("round-finishes", window, asked -> finish(leases, asked));
        this.releases = new Coalescer<>("round-releases", window, asked -> release(leases, asked));
    }

    /**
     * {@link Handle#finish}, in one statement with the rounds ending with this one.
     *
     * @return null when the end was recorded under the lease, or for a handle known lost (recorded
     *     without it); a {@link LeaseLostException} when the name turned out to be another's (the end
     *     is recorded without it); a {@link LeaseDatabaseException} when the database did not answer
     */
    RuntimeException finish(Handle handle, Instant passed, RoundEnd end) {
        return answer(finishes.submit(new Ending(handle, passed, end)), () -> new LeaseLostException("lease " + handle.name()
                + " (term " + handle.term() + ") was lost meanwhile; the round's end is recorded, the name was not given back"));
    }

    /**
     * {@link Handle#release}, in one statement with the rounds cut short with this one.
     *
     * @return null when given back; a {@link LeaseLostException} when the lease was already gone; a
     *     {@link LeaseDatabaseException} when the database did not answer
     */
    RuntimeException release(Handle handle, String reason) {
        return answer(releases.submit(new Cut(handle, reason == null ? "" : reason)), () -> new LeaseLostException("lease " + handle.name()
                + " (term " + handle.term() + ") was already gone at release"));
    }

    private static RuntimeException answer(CompletableFuture<Boolean> answer, java.util.function.Supplier<RuntimeException> lost) {
        try {
            return answer.join() ? null : lost.get();
        } catch (CompletionException e) {
            return e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private static BatchResult<Ending, Boolean> finish(Leases leases, List<Ending> asked) {
        Map<Handle, Instant> passed = new LinkedHashMap<>();
        Map<Handle, RoundEnd> ends = new HashMap<>();
        Map<Handle, Ending> byHandle = new HashMap<>();
        asked.forEach(e -> {
            passed.put(e.handle(), e.passed());
            ends.put(e.handle(), e.end());
            byHandle.put(e.handle(), e);
        });
        // The rounds' history rows are completed in the same transaction (see RoundHistory).
        BatchResult<Handle, Boolean> r = leases.batches().finishAll(passed, ends);
        Map<Ending, Boolean> answered = new LinkedHashMap<>();
        Map<Ending, LeaseDatabaseException> failed = new LinkedHashMap<>();
        r.answered().forEach((h, b) -> answered.put(byHandle.get(h), b));
        r.failed().forEach((h, e) -> failed.put(byHandle.get(h), e));
        return new BatchResult<>(answered, failed);
    }

    private static BatchResult<Cut, Boolean> release(Leases leases, List<Cut> asked) {
        Map<Handle, String> reasons = new LinkedHashMap<>();
        Map<Handle, Cut> byHandle = new HashMap<>();
        asked.forEach(c -> {
            reasons.put(c.handle(), c.reason());
            byHandle.put(c.handle(), c);
        });
        BatchResult<Handle, Boolean> r = leases.batches().releaseAll(reasons);
        Map<Cut, Boolean> answered = new LinkedHashMap<>();
        Map<Cut, LeaseDatabaseException> failed = new LinkedHashMap<>();
        r.answered().forEach((h, b) -> answered.put(byHandle.get(h), b));
        r.failed().forEach((h, e) -> failed.put(byHandle.get(h), e));
        return new BatchResult<>(answered, failed);
    }
}
