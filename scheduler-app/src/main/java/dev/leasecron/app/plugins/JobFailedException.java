package dev.leasecron.app.plugins;

/**
 * A round of a built-in job failed for a reason its message states in full (an exit code and the
 * tail of stderr, an HTTP status and an excerpt of the body, unusable params), so the round's log
 * entry needs no stack trace to be understood.
 */
public final class JobFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    public JobFailedException(String message) {
        super(message);
    }

    public JobFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
