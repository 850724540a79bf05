package dev.leasecron.app.scheduler;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

/**
 * A running round's deadlines on {@link RoundTimers}: its timeout, which cancels its work, and, when
 * its job has a next instant before that, the notice that the round overruns it. One timer entry at
 * a time, the earlier deadline's, then the other's: a thousand rounds start on one instant, and every
 * entry is an insertion into the timers' one queue, and a removal when the round ends first, as
 * nearly every round does.
 */
final class RoundDeadlines {
    private record Deadline(long atNanos, Runnable action) {}

    private final Object lock = new Object();
    /** The deadline after the one queued; guarded by {@link #lock}. */
    private Deadline following;
    private ScheduledFuture<?> queued;
    private boolean ended;

    private RoundDeadlines(Deadline first, Deadline following) {
        synchronized (lock) {
            this.following = following;
            this.queued = queue(first);
        }
    }

    /** Runs {@code onTimeout} once {@code timeout} has passed, unless {@link #end} comes first. */
    static RoundDeadlines start(Duration timeout, Runnable onTimeout) {
        return new RoundDeadlines(new Deadline(System.nanoTime() + timeout.toNanos(), onTimeout), null);
    }

    /**
     * {@link #start(Duration, Runnable)}, and {@code onOverrun} once {@code untilNext} has passed, when
     * that comes before the timeout: after it, the round no longer runs.
     */
    static RoundDeadlines start(Duration timeout, Runnable onTimeout, Duration untilNext, Runnable onOverrun) {
        long now = System.nanoTime();
        Deadline timedOut = new Deadline(now + timeout.toNanos(), onTimeout);
        if (untilNext.compareTo(timeout) >= 0) {
            return new RoundDeadlines(timedOut, null);
        }
        return new RoundDeadlines(new Deadline(now + untilNext.toNanos(), onOverrun), timedOut);
    }

    /** The round has ended: no deadline of it runs from now on. */
    void end() {
        synchronized (lock) {
            ended = true;
            following = null;
            queued.cancel(false);
        }
    }

    private ScheduledFuture<?> queue(Deadline deadline) {
        return RoundTimers.after(Duration.ofNanos(deadline.atNanos() - System.nanoTime()), () -> reach(deadline));
    }

    private void reach(Deadline deadline) {
        synchronized (lock) {
            if (ended) {
                return;
            }
        }
        deadline.action().run();
        synchronized (lock) {
            if (!ended && following != null) {
                queued = queue(following);
                following = null;
            }
        }
    }
}
