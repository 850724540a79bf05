package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.RoundLog.round;

import dev.leasecron.jobs.LeaseLostException;
import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.Holding;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.event.Level;

/**
 * Runs one claimed round: keeps its lease renewed, runs the job under it with the job's timeout, then
 * finishes the instant (a round that ran to its end, failed or timed out included) or releases it (a
 * round cut short by a shutdown or a lost lease, which is then run once more elsewhere). What the work
 * threw decides which, see {@link WorkEnding}: a failure that races a shutdown or a loss ran to its end.
 *
 * <p>A round whose lease is known lost gives nothing back: its finish records the end without the
 * lease, and a round cut short sends no release. The name is another holder's by then, or frees itself
 * within the gap between the local deadline and the lease's expiry, and a loss usually means the
 * database did not answer, so a release would mostly wait on it for nothing.
 */
final class RoundRunner {
    /** How far the clock's estimate may trail the database's now: a round trip and a stale sample. */
    private static final Duration CLOCK_UNCERTAINTY = Duration.ofSeconds(1);
    /** What a round's own reads of the clock wait on: nothing ends them but the database answering. */
    private static final LeaseScope NEVER_ENDS = LeaseScope.root();
    private static final Logger LEASE_LOG = LoggerFactory.getLogger("leasecron.lease");
    private final Leases leases;
    private final GuardedTransactions transactions;
    private final LeaseScope rounds;
    private final DueClock clock;
    private final RoundListener listener;
    private final InFlight inFlight;
    private final SharedStatements shared;

    RoundRunner(Leases leases, SharedStatements shared, GuardedTransactions transactions, LeaseScope rounds,
            DueClock clock, RoundListener listener, InFlight inFlight) {
        this.leases = leases;
        this.shared = shared;
        this.transactions = transactions;
        this.rounds = rounds;
        this.clock = clock;
        this.listener = listener;
        this.inFlight = inFlight;
    }

    /**
     * Runs the round of {@code handle}'s instant on this thread to the end of its work or until it is
     * cut short, then hands in its finish or release and returns: the thread is free to end while the
     * statement, shared with the rounds ending with this one, goes out. Counted as running until its
     * end is recorded and logged.
     *
     * @return completes, on a thread of its own, once the round's end is recorded and logged, with the
     *     last instant of the job's schedule that had come when the round ended: the round's own
     *     instant, or a later one it overran
     */
    CompletableFuture<Instant> run(ScheduledJob job, Handle handle) {
        inFlight.enter();
        return runEntered(job, handle);
    }

    /** Runs the round on a virtual thread of its own; counted as running from this call on. */
    void runInBackground(ScheduledJob job, Handle handle) {
        inFlight.enter();
        Thread.ofVirtual().name("round " + job.name()).start(() -> runEntered(job, handle));
    }

    private CompletableFuture<Instant> runEntered(ScheduledJob job, Handle handle) {
        CompletableFuture<Instant> ended;
        try {
            ended = runClaimed(job, handle, handle.slot().orElseThrow());
        } catch (RuntimeException | Error e) {
            inFlight.exit();
            throw e;
        }
        return ended.whenComplete((passed, failure) -> inFlight.exit());
    }

    private CompletableFuture<Instant> runClaimed(ScheduledJob job, Handle handle, Instant instant) {
        handle.superseded().ifPresent(given -> {
            RoundLog.event(Level.WARN, "instant.superseded", job)
                    .addKeyValue("instant", given.slot().toString())
                    .addKeyValue("rerun", given.rerun())
                    .addKeyValue("superseded_by", instant.toString())
                    .log("instant {} of {} was cut short and is given up for {}: it never runs again",
                            given.slot(), job.name(), instant);
            listener.superseded(job);
        });
        Instant startedAt = nowOr(instant);
        Duration delay = Duration.between(instant, startedAt);
        listener.started(job, handle.rerun(), delay.isNegative() ? Duration.ZERO : delay);
        round(Level.INFO, "round.start", job, instant, handle.term(), handle.holder(), handle.instance(), handle.rerun())
                .addKeyValue("fire_delay_ms", delay.toMillis())
                .addKeyValue("last_on_record", () -> handle.previousSlot().map(Instant::toString).orElse(null))
                .log("round.start job={} instant={} term={}{}", job.name(), instant, handle.term(),
                        handle.rerun() ? " rerun" : "");
        long started = System.nanoTime();

        Holding holding = leases.hold(handle, rounds, LEASE_LOG);
        LeaseScope work = holding.scope().child();
        RoundDeadlines deadlines = deadlines(job, instant, work);
        Throwable error = null;
        try {
            leases.run(work, handle, RoundLog.LOG, scope -> {
                runJob(job, handle, instant, scope);
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
        Throwable failed = error;
        if (outcome == Outcome.CUT_SHORT) {
            // Known lost: the instant stays unfinished all the same, and the name is not this round's to give back.
            CompletableFuture<Void> released = handle.lost() ? CompletableFuture.completedFuture(null) : shared.release(handle);
            return released.handleAsync((ignored, failure) -> {
                releaseAnswered(job, handle, failure);
                logEnded(job, handle, instant, outcome, started, worked, failed, work);
                return instant;
            }, endingThread(job));
        }
        Instant passed = lastCome(job, instant);
        return shared.finish(handle, passed).handleAsync((finished, failure) -> {
            boolean underLease = finishAnswered(job, handle, failure);
            logEnded(job, handle, instant, outcome, started, worked, failed, work);
            if (underLease && passed.isAfter(instant)) {
                logSkipped(job, instant, passed);
            }
            return passed;
        }, endingThread(job));
    }

    /**
     * Where a round goes on once its end is recorded: off the thread answering a batch of a thousand
     * finishes, which hands each on and sends the next.
     */
    private Executor endingThread(ScheduledJob job) {
        return shared.afterEnd("round " + job.name());
    }

    private void logEnded(ScheduledJob job, Handle handle, Instant instant, Outcome outcome, long started,
            Duration worked, Throwable error, LeaseScope work) {
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        logEnd(job, handle, instant, outcome, took, worked, error, work);
        listener.ended(job, handle.rerun(), outcome, took);
    }

    private void runJob(ScheduledJob job, Handle handle, Instant instant, LeaseScope scope) throws Exception {
        MDC.put("job", job.name());
        MDC.put("instant", instant.toString());
        MDC.put("term", Long.toString(handle.term()));
        MDC.put("rerun", Boolean.toString(handle.rerun()));
        try {
            job.job().run(new RoundContext(job.name(), instant, handle.term(), handle.rerun(), job.params(),
                    job.timeout(), JobLoggers.of(job.type()), scope, transactions));
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
                .map(next -> RoundDeadlines.start(job.timeout(), timeOut, Duration.between(nowOr(instant), next), () -> {
                    if (!work.isCancelled()) {
                        RoundLog.event(Level.WARN, "round.overrun", job)
                                .addKeyValue("instant", instant.toString())
                                .addKeyValue("next_instant", next.toString())
                                .log("round of {} for {} still runs at its next instant {}; instants it overruns are skipped",
                                        job.name(), instant, next);
                    }
                }))
                .orElseGet(() -> RoundDeadlines.start(job.timeout(), timeOut));
    }

    /**
     * The last instant of the job's schedule that has come: the round's own, or a later one it overran.
     * The clock's estimate is a lower bound, so when an instant lies just past it, the database clock
     * is read afresh: an instant that came in the last moments of the round is taken along (skipped)
     * instead of being claimed after the round, late. Ordinary rounds, far from their next instant,
     * pay no extra statement.
     */
    private Instant lastCome(ScheduledJob job, Instant instant) {
        Instant now = nowOr(instant);
        Instant latest = job.instants().latestAtOrBefore(now).filter(p -> p.isAfter(instant)).orElse(instant);
        Optional<Instant> following = job.instants().next(latest);
        if (following.isPresent() && following.get().isBefore(now.plus(CLOCK_UNCERTAINTY))) {
            try {
                now = leases.readDatabaseClock();
            } catch (LeaseDatabaseException e) {
                // The estimate stands: the instant, if it came, is claimed after the round instead.
            }
        }
        return job.instants().latestAtOrBefore(now).filter(p -> p.isAfter(instant)).orElse(instant);
    }

    private Instant nowOr(Instant fallback) {
        try {
            return clock.now(NEVER_ENDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fallback;
        }
    }

    /**
     * Logs what the finish statement answered.
     *
     * @return whether the end was recorded under the lease, which takes {@code passed} along: only then
     *     are the instants the round overran skipped. Without the lease, peers may have claimed them.
     */
    private static boolean finishAnswered(ScheduledJob job, Handle handle, Throwable failure) {
        Throwable cause = unwrapped(failure);
        if (cause == null && handle.lost()) {
            // The finish recorded the end without the lease, as it does for a handle known lost.
            RoundLog.event(Level.WARN, "lease.lost", job).addKeyValue("term", handle.term())
                    .log("round of {} ended after its lease was lost: {}", job.name(),
                            handle.loss().map(Throwable::getMessage).orElse("lease lost"));
            return false;
        }
        if (cause == null) {
            return true;
        }
        if (cause instanceof LeaseLostException) {
            RoundLog.event(Level.WARN, "lease.lost", job).addKeyValue("term", handle.term())
                    .log("round of {} ended after its lease was lost: {}", job.name(), cause.getMessage());
        } else {
            RoundLog.event(Level.ERROR, "round.finish_failed", job).addKeyValue("term", handle.term())
                    .addKeyValue("error", cause.getMessage())
                    .log("could not record the end of the round of {}: unless the statement landed with only its answer "
                            + "lost, the lease expires on its own and the instant runs again like a crashed round's: {}",
                            job.name(), cause.getMessage());
        }
        return false;
    }

    /** Logs what the release statement answered: a lease already gone leaves the instant unfinished all the same. */
    private static void releaseAnswered(ScheduledJob job, Handle handle, Throwable failure) {
        Throwable cause = unwrapped(failure);
        if (cause != null && !(cause instanceof LeaseLostException)) {
            RoundLog.event(Level.WARN, "round.release_failed", job).addKeyValue("term", handle.term())
                    .log("could not give back the lease of {}: it expires on its own: {}", job.name(), cause.getMessage());
        }
    }

    private static Throwable unwrapped(Throwable failure) {
        return failure instanceof CompletionException c && c.getCause() != null ? c.getCause() : failure;
    }

    /**
     * Logs the round's end. {@code took} runs to the finish or release recorded; {@code worked} only to
     * when the job's work returned, which is what the step-down grace bounds after a loss, while a
     * release may still wait on a database that does not answer.
     */
    private static void logEnd(ScheduledJob job, Handle handle, Instant instant, Outcome outcome, Duration took,
            Duration worked, Throwable error, LeaseScope work) {
        Level level = switch (outcome) {
            case OK -> Level.INFO;
            case CUT_SHORT, TIMEOUT -> Level.WARN;
            case FAILED -> Level.ERROR;
        };
        String reason = error == null ? null : WorkEnding.reason(outcome, error, handle, work);
        var entry = round(level, "round.end", job, instant, handle.term(), handle.holder(), handle.instance(), handle.rerun())
                .addKeyValue("outcome", outcome.label())
                .addKeyValue("duration_ms", took.toMillis())
                .addKeyValue("work_ms", worked.toMillis())
                .addKeyValue("error", reason);
        if (outcome == Outcome.FAILED) {
            entry = entry.setCause(error);
        }
        entry.log("round.end job={} instant={} outcome={} duration_ms={}{}", job.name(), instant, outcome.label(),
                took.toMillis(), reason == null ? "" : " error=" + reason);
    }

    private void logSkipped(ScheduledJob job, Instant instant, Instant passed) {
        InstantSpan.of(job.instants(), instant, passed).ifPresent(span -> {
            listener.skipped(job, span.count());
            Optional<Instant> next = job.instants().next(passed);
            RoundLog.event(Level.WARN, "instant.skipped", job)
                    .addKeyValue("count", span.count())
                    .addKeyValue("first", span.first().toString())
                    .addKeyValue("last", span.last().toString())
                    .addKeyValue("next_instant", next.map(Instant::toString).orElse(null))
                    .log("round of {} for {} overran {} instant(s) up to {}: skipped; next instant {}", job.name(),
                            instant, span.countText(), span.last(), next.map(Instant::toString).orElse("none"));
        });
    }
}
