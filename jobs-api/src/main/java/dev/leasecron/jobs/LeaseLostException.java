package dev.leasecron.jobs;

/**
 * The round's lease is no longer held: it expired and another replica may run the instant, so the
 * round's work must stop, and a transaction opened under it is refused.
 */
public class LeaseLostException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LeaseLostException(String message) {
        super(message);
    }

    public LeaseLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
