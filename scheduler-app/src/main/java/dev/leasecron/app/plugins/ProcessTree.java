package dev.leasecron.app.plugins;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Stops a child process and all of its descendants: SIGTERM to each, then, for those still alive
 * after a grace, SIGKILL. Descendants are collected before the first signal, because once their
 * parent is gone they are re-parented and no longer found through it.
 */
final class ProcessTree {
    private static final Duration POLL_INTERVAL = Duration.ofMillis(20);

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
        tree.stream().filter(ProcessTree::isRunning).forEach(p -> survivors.addAll(treeOf(p)));
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

    /**
     * Polls rather than using {@link ProcessHandle#onExit()}, which for a process that is not our
     * child (every descendant) only polls itself, with a backoff that reaches seconds.
     */
    private static void awaitExit(Set<ProcessHandle> processes, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        boolean interrupted = false;
        try {
            while (processes.stream().anyMatch(ProcessTree::isRunning) && System.nanoTime() - deadline < 0) {
                try {
                    Thread.sleep(POLL_INTERVAL);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Whether {@code process} still runs. A killed descendant whose parent is gone stays a zombie
     * until init reaps it, which some container inits do only every second or so; it runs nothing,
     * so on Linux its state in {@code /proc} decides.
     */
    static boolean isRunning(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            // Format: "pid (command) state ...", and the command may itself hold parentheses.
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException e) {
            return process.isAlive();
        }
    }
}
