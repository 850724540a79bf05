package dev.leasecron.app.scheduler;

import dev.leasecron.lease.Handle;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.LeaseLostException;
import dev.leasecron.lease.RoundEnd;
import dev.leasecron.lease.Suspension;
import java.time.Instant;
import java.util.Optional;

/**
 * The instants of suspended jobs: claimed as any other, so exactly one replica has each and it is on
 * record (no gap for a catch-up or a peer to call missed), but finished at once, through the same group
 * commit as the rounds that ran, with the history outcome {@code suspended} instead of running the job.
 * A round already running when its job is suspended is not looked at again: it runs to its end.
 */
final class SuspendedInstants {
    private final Suspensions suspensions;
    private final RoundEnds ends;
    private final DueClock clock;
    private final RoundEvents events;

    SuspendedInstants(Suspensions suspensions, RoundEnds ends, DueClock clock, RoundEvents events) {
        this.suspensions = suspensions;
        this.ends = ends;
        this.clock = clock;
        this.events = events;
    }

    /** Whether {@code job} is suspended as this replica last read it. */
    boolean suspended(ScheduledJob job) {
        return suspensions.of(job).isPresent();
    }

    /**
     * Finishes {@code handle}'s instant without running it when {@code job} is suspended.
     *
     * @return the last instant of the schedule come when it was finished, for the job's next instant;
     *     empty when the job is not suspended and its round is to run
     */
    Optional<Instant> finishIfSuspended(ScheduledJob job, Handle handle) {
        Optional<Suspension> suspension = suspensions.of(job);
        if (suspension.isEmpty()) {
            return Optional.empty();
        }
        Instant instant = handle.slot().orElseThrow();
        handle.superseded().ifPresent(given -> events.superseded(job, given.slot(), given.rerun(), instant));
        // A claim that came late takes the instants come since along, as a round would: they are suspended too.
        Instant passed = clock.lastCome(job.instants(), instant);
        RuntimeException failure = ends.finish(handle, passed, new RoundEnd(HistoryOutcome.SUSPENDED,
                reason(suspension.get())));
        Optional<InstantSpan> along = failure == null ? InstantSpan.of(job.instants(), instant, passed) : Optional.empty();
        events.suspended(job, instant, handle.term(), suspension.get(), along);
        if (failure instanceof LeaseLostException) {
            events.leaseLost(job, handle.term(), failure.getMessage());
        } else if (failure != null) {
            // The lease expires on its own and the instant is claimed again, and found suspended again (or run).
            events.finishFailed(job, handle.term(), failure.getMessage());
        }
        return Optional.of(passed);
    }

    /** For a job of every replica, which claims nothing: whether this replica leaves {@code instant} alone. */
    boolean skipIfSuspended(ScheduledJob job, Instant instant) {
        Optional<Suspension> suspension = suspensions.of(job);
        suspension.ifPresent(s -> events.suspended(job, instant, 0, s, Optional.empty()));
        return suspension.isPresent();
    }

    /** What the history row says: who suspended the job, and why. */
    static String reason(Suspension s) {
        return "suspended by " + s.by() + (s.reason().isBlank() ? "" : ": " + s.reason());
    }
}
