package dev.leasecron.jobs;

/**
 * Tells a round that it must stop. Work that cannot be interrupted (a child process, a socket)
 * registers a callback to stop it; work that loops polls {@link #isCancelled()}.
 */
public interface Cancellation {

    /** True once the round must stop. Never goes back to false. */
    boolean isCancelled();

    /**
     * Why the round must stop, once it must: a {@link LeaseLostException}, a
     * {@link java.util.concurrent.TimeoutException} or a {@link java.util.concurrent.CancellationException}
     * for a shutdown; null before.
     */
    Throwable reason();

    /**
     * Runs {@code callback} once when the round must stop, at once if it already must. The callback
     * runs on the thread that cancels and must not block.
     *
     * @return closing it unregisters the callback, for work that finished first
     */
    AutoCloseable onCancel(Runnable callback);
}
