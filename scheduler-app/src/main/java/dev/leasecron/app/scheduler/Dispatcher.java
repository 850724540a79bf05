package dev.leasecron.app.scheduler;

import dev.leasecron.lease.BatchResult;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

/**
 * Owns the instants of this replica's jobs: a table of {@link JobState}s, earliest due first, and one
 * thread that waits for the database clock to reach the earliest and hands out what is due: the
 * claims of cluster-wide jobs to the {@link ClaimSender}, one batch per instant, and the rounds of jobs
 * of every replica to threads of their own. A claim's answer comes back here: a round won starts on a
 * virtual thread and reports its end through {@link #roundEnded}; a claim refused moves on to its
 * job's next instant, at the instant or put off ({@link ClaimPlacement}); a claim the database did not
 * answer is tried again after the retry interval, until the job's next instant comes. The next instant
 * is decided here and only here.
 */
final class Dispatcher {
    private final Scheduling with;
    private final ClaimSender sender;
    private final IntSupplier replicas;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** The jobs waiting for their instant, earliest due first; guarded by {@link #lock}. */
    private final PriorityQueue<JobState> waiting = new PriorityQueue<>(JobState.BY_DUE);
    /** Guarded by {@link #lock}. */
    private final ClaimPlacement placement = new ClaimPlacement();
    private final AtomicLong added = new AtomicLong();

    /** @param replicas how many replicas share the jobs, this one included ({@link ReplicaCensus}) */
    Dispatcher(Scheduling with, IntSupplier replicas) {
        this.with = with;
        this.replicas = replicas;
        this.sender = new ClaimSender(with.leases(), with.events(), this, with.claiming());
        with.claiming().onCancel(() -> queue(null));
    }

    void start() {
        sender.start();
        Thread.ofPlatform().daemon().name("dispatcher").start(this::run);
    }

    /** Adds {@code job}; its first instant is decided on a thread of its own ({@link CatchUp}). */
    JobState add(ScheduledJob job) {
        JobState state = new JobState(job, with.claiming().child(), added.getAndIncrement());
        with.catchUp().start(state, this::queue);
        return state;
    }

    /** Stops {@code state}'s job: nothing more of it is claimed; a round of it running ends on its own terms. */
    void remove(JobState state) {
        state.scope.cancel("job stopped");
        lock.lock();
        try {
            state.stopped = true;
            waiting.remove(state);
            placement.record(state, JobState.LastClaim.NONE);
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        try {
            while (!with.claiming().isCancelled()) {
                JobState first = earliest();
                if (first == null) {
                    return;
                }
                Instant at = first.dueAt;
                long wait = with.clock().nextWait(at, with.claiming()).toNanos();
                if (wait == 0) {
                    handOut(takeDue(with.clock().now(with.claiming())));
                    continue;
                }
                lock.lock();
                try {
                    if (waiting.peek() == first && first.dueAt.equals(at)) {
                        changed.awaitNanos(wait); // an earlier job queued meanwhile wakes it
                    }
                } finally {
                    lock.unlock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The job due first, waiting until there is one; null once the replica stops claiming. */
    private JobState earliest() throws InterruptedException {
        lock.lock();
        try {
            while (waiting.isEmpty() && !with.claiming().isCancelled()) {
                changed.await(1, TimeUnit.SECONDS);
            }
            return with.claiming().isCancelled() ? null : waiting.peek();
        } finally {
            lock.unlock();
        }
    }

    private List<JobState> takeDue(Instant now) {
        List<JobState> due = new ArrayList<>();
        lock.lock();
        try {
            while (!waiting.isEmpty() && !waiting.peek().dueAt.isAfter(now)) {
                due.add(waiting.poll());
            }
        } finally {
            lock.unlock();
        }
        due.forEach(s -> s.skipStale(now).ifPresent(span -> with.events().unclaimed(s.job, span.span(), span.error())));
        return due;
    }

    private void handOut(List<JobState> due) {
        Map<Instant, List<JobState>> claims = new TreeMap<>();
        for (JobState s : due) {
            if (s.job.clusterWide()) {
                claims.computeIfAbsent(s.slot, slot -> new ArrayList<>()).add(s);
            } else {
                Instant slot = s.slot;
                startRound(s, () -> roundEnded(s, with.localRounds().run(s.job, slot)), slot);
            }
        }
        claims.forEach(sender::send);
    }

    /** What {@link ClaimSender} got for the claims of {@code slot} in one statement. */
    void answered(Instant slot, BatchResult<String, Optional<Handle>> part, Map<String, JobState> byName) {
        // The rounds won start first: they are what the instant is for.
        part.answered().forEach((name, handle) -> handle.ifPresent(h -> won(byName.get(name), h)));
        part.answered().forEach((name, handle) -> {
            if (handle.isEmpty()) {
                refused(byName.get(name), slot);
            }
        });
        part.failed().forEach((name, e) -> failed(byName.get(name), e));
    }

    private void won(JobState s, Handle handle) {
        with.events().claimed(s.job, true);
        lock.lock();
        try {
            placement.record(s, JobState.LastClaim.WON);
        } finally {
            lock.unlock();
        }
        startRound(s, () -> runClaimed(s, handle), s.slot);
    }

    /** Another replica has {@code slot}: the job moves on to its next instant, at it or put off. */
    private void refused(JobState s, Instant slot) {
        with.events().claimed(s.job, false);
        Optional<Instant> next = s.job.instants().next(slot);
        lock.lock();
        try {
            placement.record(s, JobState.LastClaim.REFUSED);
            s.catchUp = false;
            s.failure = null;
            if (next.isPresent() && !s.stopped) {
                Instant n = next.get();
                s.await(n, placement.putOff(replicas.getAsInt()) ? n.plus(with.settings().putOff()) : n);
                enqueue(s);
            }
        } finally {
            lock.unlock();
        }
        if (next.isEmpty()) {
            with.events().exhausted(s.job);
        }
    }

    /** The claim of {@code s} got no answer: tried again after the retry interval. */
    private void failed(JobState s, LeaseDatabaseException e) {
        with.events().claimFailed(s.job, s.slot, with.leases().retryInterval(), e.getMessage());
        s.failure = e;
        s.dueAt = with.clock().nowOr(s.slot).plus(with.leases().retryInterval());
        queue(s);
    }

    private void runClaimed(JobState s, Handle handle) {
        if (s.catchUp) {
            with.events().caughtUp(s.job, s.slot, s.lastOnRecord);
        }
        // The instants between the last one on record and this one were never claimed and never will be.
        handle.previousSlot().ifPresent(previous -> s.unlogged(previous, s.slot.minusNanos(1))
                .ifPresent(span -> with.events().missed(s.job, span, previous, "no replica claimed them")));
        roundEnded(s, with.rounds().run(s.job, handle));
    }

    private void startRound(JobState s, Runnable round, Instant slot) {
        Thread.ofVirtual().name("round " + s.job.name()).start(() -> {
            try {
                round.run();
            } catch (RuntimeException e) {
                with.events().crashed(s.job, e);
                roundEnded(s, slot);
            }
        });
    }

    /** The round of {@code s} ended: its job waits for the first instant after {@code passed}. */
    void roundEnded(JobState s, Instant passed) {
        Optional<Instant> next = s.job.instants().next(passed);
        if (next.isEmpty()) {
            with.events().exhausted(s.job);
            return;
        }
        s.catchUp = false;
        s.await(next.get(), next.get());
        queue(s);
    }

    /** Queues {@code s} unless its job stopped; null only wakes the dispatcher. */
    private void queue(JobState s) {
        lock.lock();
        try {
            if (s == null) {
                changed.signalAll();
            } else if (!s.stopped) {
                enqueue(s);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Queues {@code s}, waking the dispatcher when it is the new earliest; the lock held. */
    private void enqueue(JobState s) {
        waiting.add(s);
        if (waiting.peek() == s) {
            changed.signal();
        }
    }
}
