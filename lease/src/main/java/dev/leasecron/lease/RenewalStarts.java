package dev.leasecron.lease;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Starts a handle's renewals when the first one falls due rather than at the claim: most rounds end
 * well inside the renewal interval, and a thread parked for them until then is a thread started,
 * parked and stopped per round for nothing. A pool of its own, so that nothing else queued can hold
 * up a start; what it runs only starts a virtual thread.
 */
final class RenewalStarts {
    private static final ForkJoinPool STARTS = new ForkJoinPool(1);

    private RenewalStarts() {}

    /** Runs {@code start} in {@code nanos}, unless the returned future is cancelled first. */
    static ScheduledFuture<?> after(long nanos, Runnable start) {
        return STARTS.schedule(start, Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }
}
