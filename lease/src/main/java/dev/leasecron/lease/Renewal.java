package dev.leasecron.lease;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;

/**
 * Keeps one handle renewed on a virtual thread of its own, the way client-go renews a leader lease;
 * the thread starts when the first renewal falls due ({@link RenewalStarts}).
 *
 * <p>An attempt is due {@code renewInterval} after the previous one started (the claim counts as the
 * first), failed attempts included. Each waits at most half the local deadline and never past it,
 * so one that hangs leaves room for another. The lease counts as lost when a renewal finds it gone,
 * or when {@code localDeadline} has passed since the start of the last renewal that succeeded. All
 * local time is {@link System#nanoTime()}: no decision here reads a wall clock.
 *
 * <p>The renewal statement is shared: every handle of the process goes through one {@link Coalescer},
 * so the handles claimed together, whose renewals fall due together, are renewed by one statement
 * per tick, each still on its own cadence, deadline and log.
 *
 * <p>On SQLite, reached through one connection, a renewal waits behind the work's own statements:
 * a transaction shorter than {@code localDeadline - renewInterval} can never cost the lease on its
 * own; one longer than {@code localDeadline} always does; back-to-back transactions must each be
 * shorter than half the local deadline. That last bound holds only when the connection goes to
 * whoever asked for it first, so that the renewal waiting out one transaction gets it before the
 * next: give the {@link Leases} and the {@link GuardedTransactions} the same {@link InTurn} wrapper of the
 * pool.
 *
 * <p>The renewals of all the handles this object holds share statements: those falling due within
 * a few milliseconds of each other (the handles claimed together) are renewed by one
 * {@link HandleBatches#renewAll} statement, each handle still told alone whether it holds. A row another
 * transaction keeps locked thus delays the renewals sharing its statement, within the same
 * attempt timeout and local deadline as a renewal of its own.
 */
final class Renewal implements Holding {
    private final Coalescer<Handle, Boolean> renewals;
    private final LeaseTimings timings;
    private final Handle handle;
    private final LeaseScope scope;
    private final Logger log;
    private final LeaseListener listener;
    private volatile boolean stopped;
    /** Guards the thread's start against {@link #stop}: a renewal stopped before its start never starts. */
    private final Object starting = new Object();
    private ScheduledFuture<?> pendingStart;
    /** Made when the first renewal falls due, not per claim: most rounds end before. */
    private Thread thread;

    Renewal(Coalescer<Handle, Boolean> renewals, LeaseTimings timings, Handle handle, LeaseScope parent, Logger log, LeaseListener listener) {
        this.renewals = renewals;
        this.timings = timings;
        this.handle = handle;
        this.scope = parent.child();
        this.log = log;
        this.listener = listener;
    }

    /** Starts the renewals: their thread begins when the first attempt falls due. */
    Renewal start() {
        long firstDue = handle.lastRenewedNanos() + timings.renewInterval().toNanos();
        synchronized (starting) {
            pendingStart = RenewalStarts.after(firstDue - System.nanoTime(), this::startThread);
        }
        return this;
    }

    private void startThread() {
        synchronized (starting) {
            if (!stopped) {
                thread = Thread.ofVirtual().name("lease-renew " + handle.name()).start(this::renewUntilStoppedOrLost);
            }
        }
    }

    @Override
    public LeaseScope scope() {
        return scope;
    }

    @Override
    public void stop() {
        Thread started;
        synchronized (starting) {
            stopped = true;
            pendingStart.cancel(false);
            started = thread;
        }
        scope.detach();
        if (started == null) {
            return;
        }
        started.interrupt();
        boolean interrupted = false;
        while (started.isAlive()) {
            try {
                started.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void renewUntilStoppedOrLost() {
        final long deadlineNanos = timings.localDeadline().toNanos();
        final long intervalNanos = timings.renewInterval().toNanos();
        final long attemptNanos = timings.attemptTimeout().toNanos();
        long nextDue = handle.lastRenewedNanos() + intervalNanos;
        while (!stopped) {
            long deadline = handle.lastRenewedNanos() + deadlineNanos;
            if (!sleepUntil(earliest(nextDue, deadline))) {
                return;
            }
            long start = System.nanoTime();
            if (start - deadline >= 0) {
                lose("no renewal succeeded within " + timings.localDeadline() + " of the last good one");
                return;
            }
            nextDue = start + intervalNanos;
            Attempt outcome = attempt(Math.min(attemptNanos, deadline - start));
            switch (outcome) {
                case RENEWED -> handle.renewedAt(start);
                case GONE -> {
                    lose("a renewal found the lease gone: expired or released");
                    return;
                }
                case STOPPED -> {
                    return;
                }
                case FAILED -> { } // logged by attempt; the deadline decides
            }
        }
    }

    private enum Attempt { RENEWED, GONE, FAILED, STOPPED }

    private Attempt attempt(long budgetNanos) {
        CompletableFuture<Boolean> renewed = new CompletableFuture<>();
        Thread statement = Thread.ofVirtual().name("lease-renew-attempt " + handle.name()).start(() -> {
            try {
                renewed.complete(renewals.call(handle));
            } catch (Throwable t) {
                renewed.completeExceptionally(t);
            }
        });
        try {
            return renewed.get(budgetNanos, TimeUnit.NANOSECONDS) ? Attempt.RENEWED : Attempt.GONE;
        } catch (TimeoutException e) {
            // The attempt stops waiting; the shared statement, which other handles wait on too, runs
            // on until the store's statement timeout (the attempt timeout; SQLite's busy timeout).
            statement.interrupt();
            failed(new TimeoutException("renewal did not answer within " + Duration.ofNanos(budgetNanos)));
            return Attempt.FAILED;
        } catch (ExecutionException e) {
            failed(e.getCause());
            return Attempt.FAILED;
        } catch (InterruptedException e) {
            // Stopped: the holder no longer waits for the statement, but it is left to finish rather than
            // interrupted, which would close a pooled connection under it. A renewal landing after the
            // release or finish matches no row (they set expires_at_ms to 0), so it cannot revive the lease.
            return Attempt.STOPPED;
        }
    }

    private void failed(Throwable cause) {
        if (stopped) {
            return;
        }
        log.atWarn().addKeyValue("event", "lease.renew_failed")
                .addKeyValue("lease", handle.name()).addKeyValue("term", handle.term())
                .addKeyValue("holder", handle.holder()).addKeyValue("error", String.valueOf(cause.getMessage()))
                .log("lease renewal failed, still held until the local deadline: {}", cause.getMessage());
        listener.renewFailed(handle, cause);
    }

    private void lose(String reason) {
        LeaseLostException lost =
                new LeaseLostException("lease " + handle.name() + " (term " + handle.term() + ") lost: " + reason);
        // The handle and the scope learn of the loss back to back, before any logging: whoever sees one
        // must find the other a moment later, not a log write later.
        handle.markLost(lost);
        scope.cancel(lost);
        log.atWarn().addKeyValue("event", "lease.lost")
                .addKeyValue("lease", handle.name()).addKeyValue("term", handle.term())
                .addKeyValue("holder", handle.holder()).addKeyValue("reason", reason)
                .log("lease lost: {}", reason);
        listener.lost(handle, reason);
    }

    /**
     * Waits until {@code wakeAt} on the nanoTime scale; false when stopped meanwhile. Parks rather than
     * sleeps: {@link #stop}'s interrupt wakes a park without an exception, and most rounds are stopped
     * while their renewal waits, so a sleep would throw one per round.
     */
    private boolean sleepUntil(long wakeAt) {
        long remaining;
        while (!stopped && (remaining = wakeAt - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remaining);
        }
        return !stopped;
    }

    private static long earliest(long a, long b) {
        return a - b < 0 ? a : b;
    }
}
