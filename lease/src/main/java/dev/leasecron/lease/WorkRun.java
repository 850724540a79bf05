package dev.leasecron.lease;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * The protocol's last line: runs work on a virtual thread of its own so that the lease being lost can
 * be watched while it runs, and fails the process when work under a lost lease runs on past the
 * step-down grace. A scope that ends for another reason (shutdown) is not a loss: the wait goes on
 * for as long as the work runs, and whoever stops the process bounds it.
 */
final class WorkRun<T> {
    private final Handle handle;
    private final LeaseScope scope;
    private final Duration grace;
    private final Logger log;
    private final LeaseListener listener;

    WorkRun(Handle handle, LeaseScope scope, Duration grace, Logger log, LeaseListener listener) {
        this.handle = handle;
        this.scope = scope;
        this.grace = grace;
        this.log = log;
        this.listener = listener;
    }

    T run(LeaseWork<T> work) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread worker = Thread.ofVirtual().name("lease-work " + handle.name()).start(() -> {
            try {
                result.complete(CurrentLease.callWith(handle, scope, () -> work.run(scope)));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try (AutoCloseable ignored = scope.onCancel(worker::interrupt)) {
            awaitOrStepDown(result);
        }
        return unwrap(result);
    }

    private void awaitOrStepDown(CompletableFuture<T> result) {
        // join() and not get(): the wait must not end because the caller's thread is interrupted.
        CompletableFuture.anyOf(result, handle.whenLost()).exceptionally(t -> null).join();
        if (result.isDone()) {
            return;
        }
        CompletableFuture<Object> graceOver =
                new CompletableFuture<>().completeOnTimeout(null, grace.toNanos(), TimeUnit.NANOSECONDS);
        CompletableFuture.anyOf(result, graceOver).exceptionally(t -> null).join();
        if (!result.isDone()) {
            IllegalStateException failure = new IllegalStateException("work under lost lease " + handle.name()
                    + " (term " + handle.term() + ") did not stop within the step-down grace of " + grace);
            log.atError().addKeyValue("event", "lease.would_not_stop")
                    .addKeyValue("lease", handle.name()).addKeyValue("term", handle.term())
                    .log(failure.getMessage());
            listener.wouldNotStop(handle, grace);
            LeaseFailure.fail(failure);
        }
        // Never claim again beside work of our own still running: wait for as long as the process lasts.
        result.exceptionally(t -> null).join();
    }

    private static <T> T unwrap(CompletableFuture<T> result) throws Exception {
        try {
            return result.join();
        } catch (java.util.concurrent.CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            throw new ExecutionException("work failed with " + cause, cause);
        }
    }
}
