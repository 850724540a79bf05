package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.LeaseRow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Where a job starts on this replica: at start, the catch-up of the most recent instant no replica
 * claimed, if it is recent enough and the job asks for it, else its next instant. Instants passed
 * over are logged missed. Reads the database, so it runs on a thread of its own, apart from the
 * dispatcher.
 */
final class CatchUp {
    /**
     * How many jobs decide at once. At start every job decides together, and a read each would queue
     * thousands of requests on the pool ahead of the renewals and finishes of the rounds already
     * running, which then wait past their timeout: leases lost for want of a connection.
     */
    static final int CONCURRENT_DECISIONS = 4;

    private final Semaphore deciding = new Semaphore(CONCURRENT_DECISIONS);
    private final Leases leases;
    private final DueClock clock;
    private final Duration window;
    private final RoundEvents events;

    CatchUp(Leases leases, DueClock clock, Duration window, RoundEvents events) {
        this.leases = leases;
        this.clock = clock;
        this.window = window;
        this.events = events;
    }

    /**
     * Decides {@code state}'s first instant on a virtual thread of its own, at most
     * {@link #CONCURRENT_DECISIONS} jobs at a time, then hands the state to {@code queue}; nothing when
     * the job stops first or its schedule has no instant left.
     */
    void start(JobState state, Consumer<JobState> queue) {
        Thread.ofVirtual().name("start " + state.job.name()).start(() -> {
            try {
                boolean decided;
                deciding.acquire();
                try {
                    decided = decide(state);
                } finally {
                    deciding.release();
                }
                if (decided) {
                    queue.accept(state);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                events.crashed(state.job, e);
            }
        });
    }

    /**
     * Sets {@code state}'s first instant: the catch-up's ({@link JobState#catchUp}) or the next one.
     *
     * @return false when the job stopped first, or its schedule has no instant left
     */
    private boolean decide(JobState state) throws InterruptedException {
        ScheduledJob job = state.job;
        Instant now = clock.now(state.scope);
        if (job.clusterWide()) {
            Optional<Optional<Instant>> last = retrying(state, "read the last instant", () -> leases.slots().lastSlot(job.leaseName()));
            if (last.isEmpty()) {
                return false;
            }
            Optional<Instant> missed = job.instants().latestAtOrBefore(now);
            if (last.get().isPresent() && missed.isPresent() && missed.get().isAfter(last.get().get())
                    && catchUp(state, last.get().get(), missed.get(), now)) {
                return true;
            }
        }
        Optional<Instant> next = job.instants().next(now);
        if (next.isEmpty()) {
            events.exhausted(job);
            return false;
        }
        state.await(next.get(), next.get());
        return true;
    }

    /** Whether {@code missed}, after the last instant on record, is caught up; logged missed when not. */
    private boolean catchUp(JobState state, Instant lastOnRecord, Instant missed, Instant now) {
        ScheduledJob job = state.job;
        if (!job.catchUpLatest() && heldByARound(job)) {
            return false; // a peer's round overruns it: that round's end records it as skipped, so it is not missed
        }
        boolean recent = !missed.isBefore(now.minus(window));
        if (job.catchUpLatest() && recent) {
            state.await(missed, missed);
            state.catchUp = true;
            state.lastOnRecord = lastOnRecord;
            return true;
        }
        String reason = job.catchUpLatest() ? "older than " + window.toHours() + "h" : "catchUp: none";
        state.unlogged(lastOnRecord, missed).forEach(span -> events.missed(job, span, lastOnRecord, reason));
        return false;
    }

    /** Whether a round holds the job's lease now; a database that does not answer counts as not held. */
    private boolean heldByARound(ScheduledJob job) {
        try {
            return leases.views().rows(List.of(job.leaseName())).stream().anyMatch(LeaseRow::held);
        } catch (LeaseDatabaseException e) {
            return false;
        }
    }

    private <T> Optional<T> retrying(JobState state, String what, Supplier<T> statement) throws InterruptedException {
        while (!state.scope.isCancelled()) {
            try {
                return Optional.of(statement.get());
            } catch (LeaseDatabaseException e) {
                events.unavailable(state.job, what, leases.retryInterval(), e.getMessage());
                if (state.scope.await(leases.retryInterval())) {
                    break;
                }
            }
        }
        return Optional.empty();
    }
}
