package dev.leasecron.app.testing;

import dev.leasecron.app.daemon.Daemon;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** A daemon run in the test's own JVM, on a thread of its own. */
public final class DaemonThread {
    private DaemonThread() {}

    /** Runs {@code daemon} until it returns; completes then, or exceptionally with what it threw. */
    public static CompletableFuture<Void> start(Daemon daemon) {
        return CompletableFuture.runAsync(() -> {
            try {
                daemon.run();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, task -> Thread.ofPlatform().name("daemon-under-test").start(task));
    }
}
