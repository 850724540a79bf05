package dev.leasecron.app.testing;

import dev.leasecron.jobs.Cancellation;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link Cancellation} that a test fires by hand, running callbacks as the real one promises. */
public final class TestCancellation implements Cancellation {
    private final List<Runnable> callbacks = new CopyOnWriteArrayList<>();
    private volatile Throwable reason;

    @Override
    public boolean isCancelled() {
        return reason != null;
    }

    @Override
    public Throwable reason() {
        return reason;
    }

    @Override
    public synchronized AutoCloseable onCancel(Runnable callback) {
        if (reason != null) {
            callback.run();
            return () -> {};
        }
        callbacks.add(callback);
        return () -> callbacks.remove(callback);
    }

    /** Cancels with {@code why} and runs the registered callbacks on this thread, once. */
    public synchronized void cancel(Throwable why) {
        if (reason != null) {
            return;
        }
        reason = why;
        callbacks.forEach(Runnable::run);
        callbacks.clear();
    }
}
