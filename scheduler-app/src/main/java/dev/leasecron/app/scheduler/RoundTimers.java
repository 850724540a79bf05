package dev.leasecron.app.scheduler;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The timers of running rounds (their timeout, their overrun notice) on one platform thread of the
 * process, instead of a sleeping thread per timer: a thousand rounds starting on the same instant
 * each pay a queue insertion, not two thread starts, and a round that ends cancels its timers, which
 * leaves nothing queued behind. What a timer runs must be short: cancelling a scope, writing a log
 * line.
 */
final class RoundTimers {
    private static final ScheduledThreadPoolExecutor TIMERS = create();

    private RoundTimers() {}

    /** Runs {@code action} after {@code delay}, unless the returned future is cancelled first. */
    static ScheduledFuture<?> after(Duration delay, Runnable action) {
        return TIMERS.schedule(action, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    }

    private static ScheduledThreadPoolExecutor create() {
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().name("round-timers").daemon(true).factory());
        timers.setRemoveOnCancelPolicy(true);
        return timers;
    }
}
