package dev.leasecron.lease;

/**
 * A lease being kept renewed by {@link Leases#hold}. Its {@link #scope()} ends the moment the lease
 * is known lost, with a {@link LeaseLostException}, or when the parent scope
 * ends. The renewals go on after the parent ends, on purpose: until the work has wound down the name
 * must stay this holder's. The holder calls {@link #stop()} once its work has returned, then releases
 * or finishes the handle.
 */
public interface Holding extends AutoCloseable {

    /** The scope the work under the lease runs in. */
    LeaseScope scope();

    /**
     * Ends the renewals and returns once they have ended; a renewal in flight is no longer waited for. Does not
     * release the lease. Detaches {@link #scope()} from the parent it was made under (see
     * {@link LeaseScope#detach}): the parent no longer ends it, nor holds on to it. Idempotent.
     */
    void stop();

    /** Same as {@link #stop()}. */
    @Override
    default void close() {
        stop();
    }
}
