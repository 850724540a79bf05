package dev.leasecron.app.scheduler;

import dev.leasecron.jobs.Cancellation;
import dev.leasecron.lease.LeaseScope;

/**
 * A round's {@link LeaseScope} as its job sees it: the plugin API's {@link Cancellation}, whose reason
 * for a lost lease is the API's {@link dev.leasecron.jobs.LeaseLostException}, not the lease module's.
 */
final class RoundCancellation implements Cancellation {
    private final LeaseScope scope;
    private volatile Throwable reason;

    RoundCancellation(LeaseScope scope) {
        this.scope = scope;
    }

    @Override
    public boolean isCancelled() {
        return scope.isCancelled();
    }

    @Override
    public Throwable reason() {
        Throwable r = reason;
        if (r == null && scope.reason() != null) {
            r = forJobs(scope.reason());
            reason = r;
        }
        return r;
    }

    @Override
    public AutoCloseable onCancel(Runnable callback) {
        return scope.onCancel(callback);
    }

    /** {@code t} as a job sees it: a lost lease is the plugin API's exception, carrying the lease's. */
    static Throwable forJobs(Throwable t) {
        return t instanceof dev.leasecron.lease.LeaseLostException lost
                ? new dev.leasecron.jobs.LeaseLostException(lost.getMessage(), lost) : t;
    }
}
