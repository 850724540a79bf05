package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.RoundLog.event;

import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.sql.LeaseRow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.event.Level;

/**
 * One job on this replica: at start, the catch-up of the most recent instant no replica claimed;
 * then, for each instant, wait until the database clock reaches it, claim it, and run the round when
 * the claim is won. A refused claim is normal: another replica runs that instant. Runs on virtual
 * threads until its scope ends (shutdown, or the job removed by a reload): a cluster-wide job's loop
 * holds no thread while its claim waits for the instant, and goes on, once answered, on a new one.
 */
final class JobLoop {
    /** Catch-up runs only an instant this recent: older ones are on record as missed, not run. */
    static final Duration CATCH_UP_WINDOW = Duration.ofHours(24);

    private final ScheduledJob job;
    private final Leases leases;
    private final DueClock clock;
    private final RoundRunner rounds;
    private final LocalRounds localRounds;
    private final LeaseScope scope;
    private final RoundListener listener;
    private final SharedStatements shared;
    /** The last instant this loop logged missed, so that no instant is logged missed twice by it. */
    private Instant missedLoggedThrough = Instant.EPOCH;

    JobLoop(ScheduledJob job, Leases leases, SharedStatements shared, DueClock clock, RoundRunner rounds,
            LocalRounds localRounds, LeaseScope scope, RoundListener listener) {
        this.job = job;
        this.shared = shared;
        this.listener = listener;
        this.leases = leases;
        this.clock = clock;
        this.rounds = rounds;
        this.localRounds = localRounds;
        this.scope = scope;
    }

    ScheduledJob job() {
        return job;
    }

    /** Stops claiming; a round already running ends on its own terms. */
    void stop() {
        scope.cancel("job stopped");
    }

    /** Starts the loop on a virtual thread of its own. */
    void start() {
        onNewThread(this::run);
    }

    /** Runs the catch-up, then goes on with the schedule; on the loop's first thread. */
    void run() {
        guarded(() -> {
            Optional<Instant> cursor = catchUp();
            if (cursor.isPresent()) {
                goOnAfter(cursor.get());
            }
        });
    }

    /**
     * Goes on from {@code handled}, the last instant handled. A job of every replica waits for each
     * instant on this thread; a cluster-wide job hands in its claim of the next instant and this thread
     * ends: the answer resumes the loop on a new thread (see {@link DueClaims#claim}).
     */
    private void goOnAfter(Instant handled) throws InterruptedException {
        Instant cursor = handled;
        while (!scope.isCancelled()) {
            Optional<Instant> next = job.instants().next(cursor);
            if (next.isEmpty()) {
                event(Level.WARN, "schedule.exhausted", job)
                        .log("schedule of {} has no further instant: the job stops", job.name());
                return;
            }
            cursor = next.get();
            if (job.clusterWide()) {
                shared.claimWhenDue(job.leaseName(), cursor, job.instants(), () -> listener.claimed(job, false), scope)
                        .whenComplete((answer, failure) -> onNewThread(() -> guarded(() -> resume(answer, failure))));
                return;
            }
            if (!clock.awaitDue(cursor, scope)) {
                return;
            }
            localRounds.run(job, cursor);
        }
    }

    /**
     * Runs the round of the instant claimed when won, trying the claim again when the database did not
     * answer, and goes on once the round's end is recorded, on the thread that recorded it. A refused
     * claim is normal: another replica runs that instant.
     */
    private void resume(DueAnswer answer, Throwable failure) throws InterruptedException {
        if (failure != null) {
            throw failure instanceof RuntimeException r ? r
                    : new IllegalStateException("claim of " + job.leaseName() + " failed", failure);
        }
        Instant slot = answer.slot();
        Optional<Handle> claimed;
        if (answer.failure().isPresent()) {
            claimed = claimAgain(slot, answer.failure().get());
        } else {
            claimed = answer.won();
            if (claimed.isPresent() || !scope.isCancelled()) {
                listener.claimed(job, claimed.isPresent());
            }
        }
        if (claimed.isEmpty()) {
            goOnAfter(slot);
            return;
        }
        logPassedOver(claimed.get());
        rounds.run(job, claimed.get()).whenComplete((passed, ended) -> guarded(() -> {
            if (ended != null) {
                throw new IllegalStateException("round of " + job.name() + " for " + slot + " failed", ended);
            }
            goOnAfter(passed);
        }));
    }

    private void onNewThread(Runnable work) {
        Thread.ofVirtual().name("job " + job.name()).start(work);
    }

    /** Runs a step of the loop; the loop ends when it is interrupted or fails. */
    private void guarded(Step step) {
        try {
            step.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            event(Level.ERROR, "job.crashed", job).setCause(e).log("scheduling of {} stopped: {}", job.name(), e.toString());
        }
    }

    private interface Step {
        void run() throws InterruptedException;
    }

    /**
     * Reads the last instant on record and runs the catch-up.
     *
     * @return where the schedule goes on from: the database's now, or the last instant the catch-up
     *     round overran; empty when stopped first
     */
    private Optional<Instant> catchUp() throws InterruptedException {
        Instant now = clock.now(scope);
        if (!job.clusterWide()) {
            return Optional.of(now);
        }
        Optional<Optional<Instant>> last = retrying("read the last instant", () -> leases.lastSlot(job.leaseName()));
        if (last.isEmpty()) {
            return Optional.empty();
        }
        Optional<Instant> latest = job.instants().latestAtOrBefore(now);
        if (last.get().isEmpty() || latest.isEmpty() || !latest.get().isAfter(last.get().get())) {
            return Optional.of(now); // never ran, or nothing missed
        }
        Instant missed = latest.get();
        boolean recent = !missed.isBefore(now.minus(CATCH_UP_WINDOW));
        if (!job.catchUpLatest() && heldByARound()) {
            // A peer's round overruns it: that round's end records it as skipped, so it is not missed.
            return Optional.of(now);
        }
        if (!job.catchUpLatest() || !recent) {
            logMissed(last.get().get(), missed,
                    job.catchUpLatest() ? "older than " + CATCH_UP_WINDOW.toHours() + "h" : "catchUp: none");
            return Optional.of(now);
        }
        Optional<Handle> claimed = claimAgain(missed, null);
        if (claimed.isEmpty()) {
            return Optional.of(now);
        }
        logPassedOver(claimed.get());
        event(Level.INFO, "instant.caught_up", job)
                .addKeyValue("instant", missed.toString())
                .addKeyValue("last_on_record", last.get().get().toString())
                .log("catching up {} of {}: the most recent instant no replica ran", missed, job.name());
        Instant passed = awaitEnd(rounds.run(job, claimed.get()));
        return Optional.of(passed.isAfter(now) ? passed : now);
    }

    /** Waits for the round's end to be recorded, while the loop has nothing else to do: the catch-up. */
    private static Instant awaitEnd(CompletableFuture<Instant> round) throws InterruptedException {
        try {
            return round.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("round failed", e.getCause());
        }
    }

    /**
     * The instants between the last one on record and the one just claimed were never claimed and never
     * will be: their claims came while the database did not answer, or while a round held the lease
     * that did not record them as skipped (it ended after losing its lease).
     */
    private void logPassedOver(Handle claimed) {
        Instant slot = claimed.slot().orElseThrow();
        claimed.previousSlot().ifPresent(previous -> logMissed(previous, slot.minusMillis(1), "no replica claimed them"));
    }

    /** Logs the instants after {@code lastOnRecord} up to {@code last} as missed, once. */
    private void logMissed(Instant lastOnRecord, Instant last, String reason) {
        Instant after = lastOnRecord.isAfter(missedLoggedThrough) ? lastOnRecord : missedLoggedThrough;
        InstantSpan.of(job.instants(), after, last).ifPresent(span -> {
            missedLoggedThrough = span.last();
            listener.missed(job, span.count());
            event(Level.WARN, "instant.missed", job)
                    .addKeyValue("first", span.first().toString())
                    .addKeyValue("last", span.last().toString())
                    .addKeyValue("count", span.count())
                    .addKeyValue("last_on_record", lastOnRecord.toString())
                    .addKeyValue("reason", reason)
                    .log("{} instant(s) of {} from {} to {} ran on no replica and never will: {}", span.countText(),
                            job.name(), span.first(), span.last(), reason);
        });
    }

    /** Whether a round holds the job's lease now; a database that does not answer counts as not held. */
    private boolean heldByARound() {
        try {
            return leases.rows(List.of(job.leaseName())).stream().anyMatch(LeaseRow::held);
        } catch (LeaseDatabaseException e) {
            return false;
        }
    }

    /**
     * Claims {@code instant}, already due, trying again every retry interval while the database does not
     * answer, until the job's following instant is due. The claim shares its statement with the claims
     * arriving with it.
     *
     * @param failed why the try before this one failed; null when there was none (the catch-up)
     * @return the handle when the claim was won; empty when refused, or when stopped first
     */
    private Optional<Handle> claimAgain(Instant instant, LeaseDatabaseException failed) throws InterruptedException {
        Optional<Instant> following = job.instants().next(instant);
        LeaseDatabaseException lastFailure = failed;
        while (!scope.isCancelled()) {
            if (lastFailure != null) {
                if (following.isPresent() && !clock.now(scope).isBefore(following.get())) {
                    event(Level.ERROR, "instant.unclaimed", job)
                            .addKeyValue("instant", instant.toString())
                            .addKeyValue("error", lastFailure.getMessage())
                            .log("instant {} of {} could not be claimed before the next one came: the database did not answer: {}",
                                    instant, job.name(), lastFailure.getMessage());
                    return Optional.empty();
                }
                event(Level.WARN, "claim.failed", job)
                        .addKeyValue("instant", instant.toString())
                        .addKeyValue("error", lastFailure.getMessage())
                        .log("claim of {} for {} failed, trying again in {}: {}", job.name(), instant,
                                leases.retryInterval(), lastFailure.getMessage());
                if (scope.await(leases.retryInterval())) {
                    break;
                }
            }
            try {
                Optional<Handle> h = shared.claimSlot(job.leaseName(), instant);
                if (h.isEmpty() && scope.isCancelled()) {
                    return h; // refused as it stopped: done either way
                }
                listener.claimed(job, h.isPresent());
                return h;
            } catch (LeaseDatabaseException e) {
                lastFailure = e;
            }
        }
        return Optional.empty();
    }

    private <T> Optional<T> retrying(String what, java.util.function.Supplier<T> statement) throws InterruptedException {
        while (!scope.isCancelled()) {
            try {
                return Optional.of(statement.get());
            } catch (LeaseDatabaseException e) {
                event(Level.WARN, "database.unavailable", job)
                        .log("could not {} of {}, trying again in {}: {}", what, job.name(), leases.retryInterval(), e.getMessage());
                if (scope.await(leases.retryInterval())) {
                    break;
                }
            }
        }
        return Optional.empty();
    }
}
