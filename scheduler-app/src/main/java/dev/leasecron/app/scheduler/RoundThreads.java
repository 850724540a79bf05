package dev.leasecron.app.scheduler;

import dev.leasecron.lease.Handle;
import dev.leasecron.lease.HistoryTrigger;
import java.time.Instant;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Starts each round on a virtual thread of its own, and reports its end once: with the last instant
 * of the job's schedule that had come when it ended, which the dispatcher's next instant follows.
 */
final class RoundThreads {
    private final Scheduling with;
    private final BiConsumer<JobState, Instant> ended;

    /** @param ended told of each round's end, on the round's thread */
    RoundThreads(Scheduling with, BiConsumer<JobState, Instant> ended) {
        this.with = with;
        this.ended = ended;
    }

    /** Runs the round of {@code handle}, the claim of {@code s}'s instant just won. */
    void claimed(JobState s, Handle handle) {
        start(s, () -> {
            if (s.catchUp && !with.suspended().suspended(s.job)) { // no catching up an instant left alone
                with.events().caughtUp(s.job, s.slot, s.lastOnRecord);
            }
            // The instants between the last one on record and this one were never claimed and never will be.
            handle.previousSlot().ifPresent(previous -> s.unlogged(previous, s.slot.minusNanos(1))
                    .forEach(span -> with.events().missed(s.job, span, previous, "no replica claimed them")));
            return with.rounds().run(s.job, handle, s.catchUp ? HistoryTrigger.CATCH_UP : HistoryTrigger.SCHEDULED);
        });
    }

    /** Runs the round of {@code s}'s instant, for a job of every replica: nothing to claim. */
    void local(JobState s) {
        Instant slot = s.slot;
        start(s, () -> with.suspended().skipIfSuspended(s.job, slot) ? slot : with.localRounds().run(s.job, slot));
    }

    /**
     * Starts {@code round} on a thread of its own, counted as running from now: the claim's answer, or
     * the dispatcher's turn for a local round.
     */
    private void start(JobState s, Supplier<Instant> round) {
        Instant slot = s.slot;
        with.inFlight().start("round " + s.job.name(), () -> {
            Instant passed = slot;
            try {
                passed = round.get();
            } catch (RuntimeException e) {
                with.events().crashed(s.job, e);
            }
            ended.accept(s, passed);
        });
    }
}
