package dev.leasecron.lease;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

/**
 * A cancellation scope, the Java counterpart of a Go context's done channel: it ends once, with a
 * reason, and everything registered on it hears of it. A child ends when its parent does, with the
 * parent's reason, and can also end on its own (a lost lease ends the scope {@link Leases#hold}
 * returns, with a {@link LeaseLostException}, without ending the parent).
 *
 * <p>A child is held by its parent until it ends or is {@linkplain #detach detached}: a child whose
 * work is done without it having ended is detached, or a long-lived parent (a replica's scope of all
 * its rounds) would keep every child it ever made.
 *
 * <p>Thread-safe. Callbacks run on the thread that ends the scope and must not block.
 */
public final class LeaseScope {
    /**
     * One registration, and the handle that takes it back: its own identity, so that the same callback
     * registered twice is two.
     */
    private final class Registration implements AutoCloseable {
        final Runnable callback;

        Registration(Runnable callback) {
            this.callback = callback;
        }

        @Override
        public void close() {
            unregister(this);
        }
    }

    /** Guards the registrations and {@link #reason}'s setting; {@link #await} waits on it. */
    private final Object lock = new Object();
    /**
     * The first registration, held apart: a scheduler makes two scopes per round, and each hears of one
     * callback at a time, so most scopes never make a set.
     */
    private Registration first;
    /**
     * The registrations made while {@link #first} was taken, in order, all later than it; a set, so that
     * a child detaching from thousands of siblings is cheap.
     */
    private Set<Registration> more;
    private volatile Throwable reason;
    /** Unregisters this scope from its parent; does nothing for a root. */
    private volatile AutoCloseable fromParent = () -> {};

    private LeaseScope() {}

    /** A scope that ends only when {@link #cancel} is called. */
    public static LeaseScope root() {
        return new LeaseScope();
    }

    /** A scope that ends when this one does, or on its own; held by this one until it ends or is detached. */
    public LeaseScope child() {
        LeaseScope child = new LeaseScope();
        child.fromParent = onCancel(() -> child.cancel(reason));
        return child;
    }

    /**
     * Lets go of the parent, for a child whose work is done: it no longer ends when the parent does,
     * and the parent no longer holds on to it. Keeps its own state: a scope that ended stays ended.
     * Idempotent; does nothing for a root.
     */
    public void detach() {
        closeQuietly(fromParent);
    }

    /**
     * Ends the scope with {@code why}, unless it has ended already.
     *
     * @return true if this call ended it
     */
    public boolean cancel(Throwable why) {
        Objects.requireNonNull(why, "why");
        List<Registration> toRun;
        synchronized (lock) {
            if (reason != null) {
                return false;
            }
            reason = why;
            toRun = registered();
            first = null;
            more = null;
            lock.notifyAll();
        }
        // A child that ends first no longer needs to hear from its parent.
        closeQuietly(fromParent);
        for (Registration r : toRun) {
            r.callback.run();
        }
        return true;
    }

    /** Ends the scope for a shutdown: not a loss. */
    public boolean cancel(String why) {
        return cancel(new CancellationException(why));
    }

    public boolean isCancelled() {
        return reason != null;
    }

    public Throwable reason() {
        return reason;
    }

    public AutoCloseable onCancel(Runnable callback) {
        Objects.requireNonNull(callback);
        synchronized (lock) {
            if (reason == null) {
                Registration registration = new Registration(callback);
                if (first == null && more == null) {
                    first = registration;
                } else {
                    if (more == null) {
                        more = new LinkedHashSet<>();
                    }
                    more.add(registration);
                }
                return registration;
            }
        }
        callback.run();
        return () -> {};
    }

    private void unregister(Registration registration) {
        synchronized (lock) {
            if (first == registration) {
                first = null;
            } else if (more != null) {
                more.remove(registration);
            }
        }
    }

    /** The registrations in order; the lock held. */
    private List<Registration> registered() {
        if (more == null) {
            return first == null ? List.of() : List.of(first);
        }
        List<Registration> all = new ArrayList<>(more.size() + 1);
        if (first != null) {
            all.add(first);
        }
        all.addAll(more);
        return all;
    }

    /**
     * Waits up to {@code timeout} for the scope to end.
     *
     * @return true if it has ended
     */
    public boolean await(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            long left;
            while (reason == null && (left = deadline - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
            return reason != null;
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
