package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseLostException;
import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.Holding;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryTrigger;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.RoundEnd;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one claimed round on the calling thread: keeps its lease renewed, runs the job under it with
 * the job's timeout, then finishes the instant (a round that ran to its end, failed or timed out
 * included) or releases it (a round cut short by a shutdown or a lost lease, which is then run once
 * more elsewhere). What the work threw decides which, see {@link WorkEnding}.
 *
 * <p>A round whose lease is known lost gives nothing back: its finish records the end without the
 * lease, and a round cut short sends no release. The name is another holder's by then, or frees itself
 * within the gap between the local deadline and the lease's expiry, and a loss usually means the
 * database did not answer, so a release would mostly wait on it for nothing.
 */
final class RoundRunner {
    private static final Logger LEASE_LOG = LoggerFactory.getLogger("leasecron.lease");

    private final Leases leases;
    private final RoundEnds ends;
    private final GuardedTransactions transactions;
    private final LeaseScope rounds;
    private final DueClock clock;
    private final RoundEvents events;
    private final SuspendedInstants suspended;

    RoundRunner(Leases leases, RoundEnds ends, GuardedTransactions transactions, LeaseScope rounds, DueClock clock,
            RoundEvents events, SuspendedInstants suspended) {
        this.leases = leases;
        this.ends = ends;
        this.transactions = transactions;
        this.rounds = rounds;
        this.clock = clock;
        this.events = events;
        this.suspended = suspended;
    }

    /**
     * Runs the round of {@code handle}'s instant to its end, or until it is cut short, and records and
     * logs its end. A suspended job's instant (a rerun's too) is finished at once instead
     * ({@link SuspendedInstants}). The caller counts it as running from before its claim ({@link InFlight}).
     *
     * @return the last instant of the job's schedule that had come when the round ended: the round's
     *     own, or a later one it overran and took along
     */
    Instant run(ScheduledJob job, Handle handle) {
        return run(job, handle, HistoryTrigger.SCHEDULED);
    }

    /** {@link #run(ScheduledJob, Handle)}, the round logged with {@code trigger} unless it is a rerun. */
    Instant run(ScheduledJob job, Handle handle, HistoryTrigger trigger) {
        Optional<Instant> notRun = suspended.finishIfSuspended(job, handle);
        if (notRun.isPresent()) {
            return notRun.get();
        }
        return runClaimed(Round.of(job, handle, trigger), handle);
    }

    /**
     * How a round's work under its lease went: what it threw, and how it is to be told.
     *
     * @param reason why it did not end ok, for the log; null when it did
     * @param worked how long the job's work ran
     */
    record Worked(Outcome outcome, String reason, Throwable error, Duration worked) {
        /** What the history row keeps of it. */
        RoundEnd end() {
            return new RoundEnd(HistoryOutcome.valueOf(outcome.name()), detail(reason, error));
        }
    }

    /**
     * Holds {@code handle} renewed and runs {@code round}'s job under it to its end, its timeout, or
     * until it is cut short; the overrun notice is for the job's first instant after {@code from}.
     * Gives nothing back: the caller records the end.
     */
    Worked work(Round round, Handle handle, Instant from) {
        long started = System.nanoTime();
        Holding holding = leases.hold(handle, rounds, LEASE_LOG);
        LeaseScope work = holding.scope().child();
        RoundDeadlines deadlines = deadlines(round.job(), from, work);
        Throwable error = null;
        try {
            leases.run(work, handle, RoundEvents.LOG, scope -> {
                runJob(round, scope);
                return null;
            });
        } catch (Exception e) {
            error = e;
        } finally {
            deadlines.end();
        }
        Duration worked = Duration.ofNanos(System.nanoTime() - started);
        holding.stop();
        Outcome outcome = WorkEnding.outcome(error, work);
        return new Worked(outcome, error == null ? null : WorkEnding.reason(outcome, error, lossOf(handle), work), error,
                worked);
    }

    private Instant runClaimed(Round round, Handle handle) {
        ScheduledJob job = round.job();
        Instant instant = round.instant();
        handle.superseded().ifPresent(given -> events.superseded(job, given.slot(), given.rerun(), instant));
        Duration delay = Duration.between(instant, clock.nowOr(instant));
        events.started(round, delay.isNegative() ? Duration.ZERO : delay, handle.previousSlot());
        long started = System.nanoTime();

        Worked w = work(round, handle, instant);
        Outcome outcome = w.outcome();
        String reason = w.reason();
        Throwable error = w.error();
        Duration worked = w.worked();
        if (outcome == Outcome.CUT_SHORT) {
            // Known lost: the instant stays unfinished all the same, and the name is not this round's to give back.
            RuntimeException failure = handle.lost() ? null : ends.release(handle, detail(reason, error));
            if (failure != null && !(failure instanceof LeaseLostException)) {
                events.releaseFailed(job, handle.term(), failure.getMessage());
            }
            events.ended(round, outcome, since(started), worked, reason, error);
            return instant;
        }
        Instant passed = clock.lastCome(job.instants(), instant);
        boolean underLease = finishAnswered(job, handle, ends.finish(handle, passed, w.end()));
        events.ended(round, outcome, since(started), worked, reason, error);
        if (underLease && passed.isAfter(instant)) {
            InstantSpan.of(job.instants(), instant, passed)
                    .ifPresent(span -> events.skipped(job, span, job.instants().next(passed)));
        }
        return passed;
    }

    /** What the history row keeps of the round's end: the reason, else the error's message. */
    private static String detail(String reason, Throwable error) {
        if (reason != null && !reason.isBlank()) {
            return reason;
        }
        return error == null ? "" : String.valueOf(error.getMessage());
    }

    static String lossOf(Handle handle) {
        return handle.lost() ? handle.loss().map(Throwable::getMessage).orElse("lease lost") : null;
    }

    static Duration since(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    private void runJob(Round round, LeaseScope scope) throws Exception {
        ScheduledJob job = round.job();
        MDC.put("job", job.name());
        MDC.put("instant", round.instant().toString());
        MDC.put("term", Long.toString(round.term()));
        MDC.put("rerun", Boolean.toString(round.rerun()));
        MDC.put("trigger", round.trigger().label());
        try {
            job.job().run(new RoundContext(job.name(), round.instant(), round.term(), round.rerun(), job.params(),
                    job.timeout(), JobLoggers.of(job.type()), new RoundCancellation(scope), transactions));
        } finally {
            MDC.clear();
        }
    }

    /** Cancels {@code work}: the job's timeout has passed. */
    static Runnable timeOut(ScheduledJob job, LeaseScope work) {
        return () -> work.cancel(new TimeoutException("round ran past its timeout of " + job.timeout()));
    }

    /**
     * The round's timeout, and the notice when the job's next instant comes while this round still
     * runs. The wait for the next instant is measured on the database clock's estimate, a lower bound,
     * so the notice never comes before the instant.
     */
    private RoundDeadlines deadlines(ScheduledJob job, Instant instant, LeaseScope work) {
        Runnable timeOut = timeOut(job, work);
        return job.instants().next(instant)
                .map(next -> RoundDeadlines.start(job.timeout(), timeOut, Duration.between(clock.nowOr(instant), next), () -> {
                    if (!work.isCancelled()) {
                        events.overrun(job, instant, next);
                    }
                }))
                .orElseGet(() -> RoundDeadlines.start(job.timeout(), timeOut));
    }

    /**
     * Logs what the finish statement answered.
     *
     * @return whether the end was recorded under the lease, which takes {@code passed} along: only then
     *     are the instants the round overran skipped. Without the lease, peers may have claimed them.
     */
    private boolean finishAnswered(ScheduledJob job, Handle handle, RuntimeException failure) {
        if (failure == null && handle.lost()) {
            // The finish recorded the end without the lease, as it does for a handle known lost.
            events.leaseLost(job, handle.term(), lossOf(handle));
            return false;
        }
        if (failure == null) {
            return true;
        }
        if (failure instanceof LeaseLostException) {
            events.leaseLost(job, handle.term(), failure.getMessage());
        } else {
            events.finishFailed(job, handle.term(), failure.getMessage());
        }
        return false;
    }
}
