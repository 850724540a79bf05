package dev.leasecron.app.scheduler;

import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseLostException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.ManualRun;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs a round an operator asked for, claimed through {@link RunRequests}: under the job's lease like
 * any round ({@link RoundRunner#work}), logged {@code round.start}/{@code round.end} with
 * {@code trigger=manual}, and ended with {@link ManualRun#end}, which gives the lease back without
 * touching the job's instants but to take along those that came meanwhile. Those were refused on
 * every replica while this round held the lease, so they are logged skipped here and recorded in the
 * history, as an overrunning round's are.
 *
 * <p>A manual round cut short (a shutdown, a lost lease) ends {@code cut_short} and is not run again:
 * it has no instant to run a second time, and whoever asked can ask again.
 */
final class ManualRoundRunner {
    private final RoundRunner runner;
    private final InFlight inFlight;
    private final DueClock clock;
    private final RoundEvents events;
    private final Duration claimLag;

    /**
     * @param claimLag how long after its instant a replica may still send its claim: the put-off and
     *     a retry or two. An instant that came longer than that before the manual claim had its claim
     *     answered before the lease was taken: it is not this round's to take along or tell of (it ran,
     *     or was told missed, or came before any replica ran the job).
     */
    ManualRoundRunner(RoundRunner runner, InFlight inFlight, DueClock clock, RoundEvents events, Duration claimLag) {
        this.runner = runner;
        this.inFlight = inFlight;
        this.clock = clock;
        this.events = events;
        this.claimLag = claimLag;
    }

    /**
     * Claims a run request of {@code job} with {@code claim}, unless {@code claiming} has ended, and,
     * when won, runs its round to its end on a thread of its own and records it; counted as
     * {@link InFlight} says.
     *
     * @return false when claiming has ended and nothing was sent
     */
    boolean claimAndStart(LeaseScope claiming, ScheduledJob job, Supplier<Optional<ManualRun>> claim) {
        return inFlight.claimAndStart(claiming, "manual " + job.name(), claim, run -> run(job, run));
    }

    private void run(ScheduledJob job, ManualRun run) {
        Round round = Round.manual(job, run);
        Handle handle = run.handle();
        // Its fire delay: how long the request waited for a replica, and for the job's lease.
        Duration waited = Duration.between(run.request().requestedAt(), run.claimedAt());
        events.started(round, waited.isNegative() ? Duration.ZERO : waited, run.previousSlot());
        long started = System.nanoTime();
        RoundRunner.Worked w = runner.work(round, handle, run.claimedAt());

        Instant from = run.claimedAt().minus(claimLag);
        Optional<Instant> passed = job.instants().latestAtOrBefore(clock.nowOr(run.claimedAt()))
                .filter(p -> !p.isBefore(from));
        Optional<Instant> next = job.instants().next(passed.orElse(from.minusNanos(1)));
        Optional<Instant> onRecord = Optional.empty();
        boolean underLease = false;
        try {
            onRecord = run.end(w.end(), passed, next);
            underLease = !handle.lost();
            if (!underLease) {
                events.leaseLost(job, handle.term(), RoundRunner.lossOf(handle));
            }
        } catch (LeaseLostException e) {
            events.leaseLost(job, handle.term(), e.getMessage());
        } catch (LeaseDatabaseException e) {
            events.finishFailed(job, handle.term(), e.getMessage());
        }
        events.ended(round, w.outcome(), RoundRunner.since(started), w.worked(), w.reason(), w.error());
        if (underLease) {
            onRecord.ifPresent(last -> skipped(job, run, from, last));
        }
    }

    /**
     * Logs the instants the release moved the record past: after the last on record at the claim and
     * not before {@code from}, up to {@code last}, the one taken along.
     */
    private void skipped(ScheduledJob job, ManualRun run, Instant from, Instant last) {
        if (run.previousSlot().filter(previous -> !previous.isBefore(last)).isPresent()) {
            return; // nothing taken along
        }
        Instant after = run.previousSlot().filter(previous -> !previous.isBefore(from)).orElse(from.minusNanos(1));
        InstantSpan.of(job.instants(), after, last).ifPresent(span -> events.skipped(job, span,
                job.instants().next(last), "a manual round of the job held its lease"));
    }
}
