package dev.leasecron.app.daemon;

/**
 * The daemon cannot start with the configuration it was given: a user's mistake, explained in the
 * message (which masks any password), to print without a stack trace.
 */
public final class StartRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StartRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
