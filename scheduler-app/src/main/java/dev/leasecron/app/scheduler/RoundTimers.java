package dev.leasecron.app.scheduler;

import java.time.Duration;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The timers of running rounds (their timeout, their overrun notice) on a pool of their own, instead
 * of a sleeping thread per timer. A thousand rounds start on the same instant and each schedules and
 * cancels two timers: a {@link ForkJoinPool}'s delay queue takes that without the one lock a
 * {@code ScheduledThreadPoolExecutor} makes them all queue on. What a timer runs must be short:
 * cancelling a scope, writing a log line.
 */
final class RoundTimers {
    private static final ForkJoinPool TIMERS = new ForkJoinPool(1);

    private RoundTimers() {}

    /** Runs {@code action} after {@code delay}, unless the returned future is cancelled first. */
    static ScheduledFuture<?> after(Duration delay, Runnable action) {
        return TIMERS.schedule(action, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    }
}
