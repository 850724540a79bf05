package dev.leasecron.lease;

import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens when work under a lost lease will not stop: the process fails. The default logs the
 * reason and halts the JVM with status 70, without running shutdown hooks (they could wait on the
 * very work that will not stop), so the orchestrator restarts the replica. This is the only
 * process-wide state of the lease module; tests swap it to record the failure instead.
 */
public final class LeaseFailure {
    /** The exit status of a replica halted because work under a lost lease would not stop. */
    public static final int EXIT_STATUS = 70;

    private static final Logger LOG = LoggerFactory.getLogger(LeaseFailure.class);
    private static final Consumer<Throwable> HALT = reason -> {
        LOG.atError().addKeyValue("event", "lease.fail_process").setCause(reason)
                .log("halting: {}", reason.getMessage());
        Runtime.getRuntime().halt(EXIT_STATUS);
    };
    private static volatile Consumer<Throwable> hook = HALT;

    private LeaseFailure() {}

    /** Undoes a {@link #setFail}. */
    @FunctionalInterface
    public interface Restore extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Replaces what happens when work under a lost lease will not stop, until the returned value is
     * closed. Tests record the failure: the real one is one-way, so a test that tripped it could not
     * run twice.
     */
    public static Restore setFail(Consumer<Throwable> replacement) {
        Objects.requireNonNull(replacement);
        Consumer<Throwable> previous = hook;
        hook = replacement;
        return () -> hook = previous;
    }

    static void fail(Throwable reason) {
        hook.accept(reason);
    }
}
