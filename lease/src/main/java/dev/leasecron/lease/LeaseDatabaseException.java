package dev.leasecron.lease;

/**
 * The database did not answer a lease statement, or answered with an error. Not a loss: a holder
 * keeps renewing until its local deadline, and a claimant tries again after
 * {@link Leases#retryInterval()}.
 */
public class LeaseDatabaseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LeaseDatabaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
