package dev.leasecron.app.scheduler;

import dev.leasecron.lease.BatchResult;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseDatabaseException;
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

/**
 * Owns the instants of this replica's jobs: a table of {@link JobState}s, earliest due first, and one
 * thread that waits for the database clock to reach the earliest and hands out what is due: the
 * claims of cluster-wide jobs to the {@link ClaimSender}, one batch per instant, and the rounds of jobs
 * of every replica to threads of their own. A claim's answer comes back here: a round won starts on a
 * virtual thread ({@link RoundThreads}) and reports its end through {@link #roundEnded}; a claim refused moves on to its
 * job's next instant, at the instant or put off ({@link ClaimPlacement}); a claim the database did not
 * answer is tried again after the retry interval, until the job's next instant comes. The next instant
 * is decided here and only here.
 */
final class Dispatcher {
    private final Scheduling with;
    private final ClaimSender sender;
    private final RoundThreads rounds;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** The jobs waiting for their instant, earliest due first; guarded by {@link #lock}. */
    private final PriorityQueue<JobState> waiting = new PriorityQueue<>(JobState.BY_DUE);
    private final ClaimPlacement placement = new ClaimPlacement(); // guarded by lock
    private final AtomicLong added = new AtomicLong();
    /** When the dispatcher last went round its loop ({@link System#nanoTime()}); 0 before it started. */
    private volatile long heartbeat;

    Dispatcher(Scheduling with) {
        this.with = with;
        this.sender = new ClaimSender(with.leases(), with.events(), this::answered, with.claiming(), with.inFlight());
        this.rounds = new RoundThreads(with, this::roundEnded);
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
        heartbeat = System.nanoTime();
        try {
            while (!with.claiming().isCancelled()) {
                try {
                    if (!turn()) {
                        return;
                    }
                    heartbeat = System.nanoTime();
                } catch (RuntimeException e) {
                    // A bug in one turn must not end the scheduling of every job; the heartbeat stops meanwhile.
                    SchedulerEvents.dispatcherFailed(e);
                    with.claiming().await(with.leases().retryInterval());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One turn: waits for the earliest job, or hands out what is due; false once the replica stops claiming. */
    private boolean turn() throws InterruptedException {
        JobState first = earliest();
        if (first == null) {
            return !with.claiming().isCancelled(); // no job waiting: a turn all the same, for the heartbeat
        }
        Instant at = first.dueAt;
        long wait = with.clock().nextWait(at, with.claiming()).toNanos();
        if (wait == 0) {
            handOut(takeDue(with.clock().now(with.claiming())));
            return true;
        }
        lock.lock();
        try {
            if (waiting.peek() == first && first.dueAt.equals(at)) {
                changed.awaitNanos(wait); // an earlier job queued meanwhile wakes it
            }
        } finally {
            lock.unlock();
        }
        return true;
    }

    /**
     * When the dispatcher last went round its loop, as {@link System#nanoTime()}: at least every
     * {@link DueClock}'s longest wait (30 s) while it runs; 0 before it started.
     */
    long heartbeat() {
        return heartbeat;
    }

    /** The job due first, waiting up to a second for one; null when none came or the replica stops claiming. */
    private JobState earliest() throws InterruptedException {
        lock.lock();
        try {
            if (waiting.isEmpty() && !with.claiming().isCancelled()) {
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
        due.forEach(s -> s.skipStale(now)
                .ifPresent(u -> u.spans().forEach(span -> with.events().unclaimed(s.job, span, u.error()))));
        return due;
    }

    private void handOut(List<JobState> due) {
        Map<Instant, List<JobState>> claims = new TreeMap<>();
        for (JobState s : due) {
            if (s.job.clusterWide()) {
                claims.computeIfAbsent(s.slot, slot -> new ArrayList<>()).add(s);
            } else {
                rounds.local(s);
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
        rounds.claimed(s, handle);
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
                s.await(n, placement.putOff(with.replicas().getAsInt()) ? n.plus(with.settings().putOff()) : n);
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
