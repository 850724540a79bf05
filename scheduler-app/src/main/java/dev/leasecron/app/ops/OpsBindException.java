package dev.leasecron.app.ops;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The HTTP endpoints cannot listen where the jobs file says: the port is in use, the address is not
 * this host's, or the name does not resolve. An operator's mistake, so the message is a whole
 * sentence for the user and the daemon exits without a stack trace.
 */
public final class OpsBindException extends UncheckedIOException {
    private static final long serialVersionUID = 1L;

    OpsBindException(String message, IOException cause) {
        super(message, cause);
    }
}
