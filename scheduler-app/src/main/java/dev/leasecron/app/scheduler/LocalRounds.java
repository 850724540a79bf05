package dev.leasecron.app.scheduler;

import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.LeaseScope;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.MDC;

/**
 * Rounds of {@code scope: replica} jobs, on the calling thread: every replica runs every instant,
 * without a lease, so there is nothing to claim, finish or run again. The timeout and a shutdown still
 * cancel the round, which then interrupts its thread.
 */
final class LocalRounds {
    private final LeaseScope rounds;
    private final GuardedTransactions transactions;
    private final String instance;
    private final DueClock clock;
    private final RoundEvents events;

    LocalRounds(LeaseScope rounds, GuardedTransactions transactions, String instance, DueClock clock,
            RoundEvents events) {
        this.rounds = rounds;
        this.transactions = transactions;
        this.instance = instance;
        this.clock = clock;
        this.events = events;
    }

    /**
     * Runs the round of {@code instant} and logs its end; the caller counts it as running ({@link InFlight}).
     *
     * @return the last instant of the job's schedule that had come when the round ended: the round's
     *     own, or a later one it overran, which is skipped
     */
    Instant run(ScheduledJob job, Instant instant) {
        Round round = Round.local(job, instant, instance);
        Duration delay = Duration.between(instant, clock.nowOr(instant));
        events.started(round, delay.isNegative() ? Duration.ZERO : delay, Optional.empty());
        long started = System.nanoTime();
        LeaseScope work = rounds.child();
        RoundDeadlines deadline = RoundDeadlines.start(job.timeout(), RoundRunner.timeOut(job, work));
        Throwable error = null;
        MDC.put("job", job.name());
        MDC.put("instant", instant.toString());
        try (AutoCloseable interrupting = work.onCancel(Thread.currentThread()::interrupt)) {
            job.job().run(new RoundContext(job.name(), instant, 0, false, job.params(), job.timeout(),
                    JobLoggers.of(job.type()), new RoundCancellation(work), transactions));
        } catch (Throwable t) {
            error = t;
        } finally {
            deadline.end();
            work.detach();
            MDC.clear();
            Thread.interrupted(); // a cancellation that came as the job returned is not this thread's to keep
        }
        Duration took = RoundRunner.since(started);
        Outcome outcome = WorkEnding.outcome(error, work);
        events.ended(round, outcome, took, took, error == null ? null : WorkEnding.reason(outcome, error, null, work), error);
        Instant passed = clock.lastCome(job.instants(), instant);
        if (passed.isAfter(instant)) {
            InstantSpan.of(job.instants(), instant, passed)
                    .ifPresent(span -> events.skipped(job, span, job.instants().next(passed)));
        }
        return passed;
    }
}
