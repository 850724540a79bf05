package dev.leasecron.app.plugins;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Stops a child process and all of its descendants: SIGTERM to each, then, for those still alive
 * after a grace, SIGKILL. Descendants are collected before the first signal, because once their
 * parent is gone they are re-parented and no longer found through it.
 */
final class ProcessTree {
    private ProcessTree() {}

    /**
     * Terminates {@code root} and its descendants and returns once all have exited, or once the
     * forced kill was sent to those left after {@code grace}. Waits even when the calling thread is
     * interrupted (the interrupt is kept for the caller): a round must not end with its processes
     * still running.
     */
    static void kill(ProcessHandle root, Duration grace) {
        Set<ProcessHandle> tree = treeOf(root);
        tree.forEach(ProcessHandle::destroy);
        awaitExit(tree, grace);
        Set<ProcessHandle> survivors = new LinkedHashSet<>();
        // A survivor may have forked during the grace, so its descendants are collected again.
        tree.stream().filter(ProcessHandle::isAlive).forEach(p -> survivors.addAll(treeOf(p)));
        survivors.forEach(ProcessHandle::destroyForcibly);
        awaitExit(survivors, grace);
    }

    private static Set<ProcessHandle> treeOf(ProcessHandle root) {
        Set<ProcessHandle> tree = new LinkedHashSet<>();
        tree.add(root);
        try (Stream<ProcessHandle> descendants = root.descendants()) {
            descendants.forEach(tree::add);
        }
        return tree;
    }

    private static void awaitExit(Set<ProcessHandle> processes, Duration limit) {
        List<CompletableFuture<ProcessHandle>> exits = new ArrayList<>();
        processes.forEach(p -> exits.add(p.onExit()));
        CompletableFuture<Void> all = CompletableFuture.allOf(exits.toArray(CompletableFuture[]::new));
        long deadline = System.nanoTime() + limit.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    all.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (TimeoutException | ExecutionException e) {
                    return;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
