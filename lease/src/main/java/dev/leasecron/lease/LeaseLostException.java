package dev.leasecron.lease;

/**
 * The lease is no longer the caller's: it expired, was released, or another holder took the name.
 * Thrown by {@link Handle#renew}, {@link Handle#release}, {@link Handle#finish} and by a guarded
 * transaction ({@link GuardedTransactions}) whose lease is gone; it is the reason a {@link LeaseScope}
 * ends with when its lease is lost. A claim that is refused is a normal empty result, never this.
 */
public class LeaseLostException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LeaseLostException(String message) {
        super(message);
    }
}
