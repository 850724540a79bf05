package dev.leasecron.lease;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * The protocol's last line: runs work on the calling thread, interrupting it when the scope ends, and
 * fails the process when work under a lost lease runs on past the step-down grace. The caller, busy
 * with the work, cannot claim again beside it: it returns only once the work has. A scope that ends
 * for another reason (shutdown) is not a loss: the work runs for as long as it does, and whoever stops
 * the process bounds that.
 *
 * <p>The work runs on the caller's thread rather than one of its own: a scheduler starts a thousand
 * rounds on one instant, and a thread started and joined per round was a measurable part of their
 * start. The loss is watched from the side instead, by the renewals that find it.
 */
final class WorkRun<T> {
    private final Handle handle;
    private final LeaseScope scope;
    private final Duration grace;
    private final Logger log;
    private final LeaseListener listener;
    /** Guards {@link #returned}: once the work has returned, neither an interrupt nor the failure may come. */
    private final Object lock = new Object();
    private boolean returned;
    private boolean interrupted;

    WorkRun(Handle handle, LeaseScope scope, Duration grace, Logger log, LeaseListener listener) {
        this.handle = handle;
        this.scope = scope;
        this.grace = grace;
        this.log = log;
        this.listener = listener;
    }

    T run(LeaseWork<T> work) throws Exception {
        Thread worker = Thread.currentThread();
        // The check runs on the delay's own thread: no pool the work might keep busy can hold it up.
        handle.whenLost().thenRun(() -> CompletableFuture.delayedExecutor(grace.toNanos(), TimeUnit.NANOSECONDS, Runnable::run)
                .execute(this::failIfStillRunning));
        try (AutoCloseable ignored = scope.onCancel(() -> interrupt(worker))) {
            return CurrentLease.callWith(handle, scope, () -> work.run(scope));
        } catch (Error e) {
            throw new ExecutionException("work failed with " + e, e);
        } finally {
            synchronized (lock) {
                returned = true;
                if (interrupted) {
                    // The interrupt was the work's stop signal; the caller goes on to record the round.
                    Thread.interrupted();
                }
            }
        }
    }

    private void interrupt(Thread worker) {
        synchronized (lock) {
            if (!returned) {
                interrupted = true;
                worker.interrupt();
            }
        }
    }

    private void failIfStillRunning() {
        synchronized (lock) {
            if (returned) {
                return;
            }
        }
        IllegalStateException failure = new IllegalStateException("work under lost lease " + handle.name()
                + " (term " + handle.term() + ") did not stop within the step-down grace of " + grace);
        log.atError().addKeyValue("event", "lease.would_not_stop")
                .addKeyValue("lease", handle.name()).addKeyValue("term", handle.term())
                .log(failure.getMessage());
        listener.wouldNotStop(handle, grace);
        LeaseFailure.fail(failure);
    }
}
