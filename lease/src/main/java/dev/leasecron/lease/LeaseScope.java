package dev.leasecron.lease;

import dev.leasecron.jobs.Cancellation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A cancellation scope, the Java counterpart of a Go context's done channel: it ends once, with a
 * reason, and everything registered on it hears of it. A child ends when its parent does, with the
 * parent's reason, and can also end on its own (a lost lease ends the scope {@link Leases#hold}
 * returns, with a {@link dev.leasecron.jobs.LeaseLostException}, without ending the parent).
 *
 * <p>Thread-safe. Callbacks run on the thread that ends the scope and must not block.
 */
public final class LeaseScope implements Cancellation {
    private final Object lock = new Object();
    private final List<Runnable> callbacks = new ArrayList<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile Throwable reason;

    private LeaseScope() {}

    /** A scope that ends only when {@link #cancel} is called. */
    public static LeaseScope root() {
        return new LeaseScope();
    }

    /** A scope that ends when this one does, or on its own. */
    public LeaseScope child() {
        LeaseScope child = new LeaseScope();
        AutoCloseable link = onCancel(() -> child.cancel(reason));
        // A child that ends first no longer needs to hear from its parent.
        child.onCancel(() -> closeQuietly(link));
        return child;
    }

    /**
     * Ends the scope with {@code why}, unless it has ended already.
     *
     * @return true if this call ended it
     */
    public boolean cancel(Throwable why) {
        Objects.requireNonNull(why, "why");
        List<Runnable> toRun;
        synchronized (lock) {
            if (reason != null) {
                return false;
            }
            reason = why;
            toRun = List.copyOf(callbacks);
            callbacks.clear();
        }
        ended.countDown();
        for (Runnable r : toRun) {
            r.run();
        }
        return true;
    }

    /** Ends the scope for a shutdown: not a loss. */
    public boolean cancel(String why) {
        return cancel(new CancellationException(why));
    }

    @Override
    public boolean isCancelled() {
        return reason != null;
    }

    @Override
    public Throwable reason() {
        return reason;
    }

    @Override
    public AutoCloseable onCancel(Runnable callback) {
        Objects.requireNonNull(callback);
        synchronized (lock) {
            if (reason == null) {
                callbacks.add(callback);
                return () -> {
                    synchronized (lock) {
                        callbacks.remove(callback);
                    }
                };
            }
        }
        callback.run();
        return () -> {};
    }

    /**
     * Waits up to {@code timeout} for the scope to end.
     *
     * @return true if it has ended
     */
    public boolean await(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
