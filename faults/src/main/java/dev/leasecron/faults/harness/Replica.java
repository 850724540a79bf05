package dev.leasecron.faults.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One replica of the daemon, as a process of the packaged jar, started again after each kill or
 * stop. Each start is a process of its own, named {@code r<index>.<start>}, whose stdout (the JSON
 * log) goes to a file of that name.
 */
final class Replica {
    /** libfaketime, preloaded into a skewed replica's JVM (the {@code faketime} wrapper would fork, hiding the pid). */
    static final Path LIBFAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

    private final int index;
    private final ReplicaSetup setup;
    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final List<String> ignoredTerm = new ArrayList<>();
    private Process current;
    private String currentName;
    private boolean stopped;

    Replica(int index, ReplicaSetup setup) {
        this.index = index;
        this.setup = setup;
    }

    String name() {
        return "r" + index;
    }

    /**
     * Starts a new process of this replica.
     *
     * @param skew the process clock's offset for libfaketime, e.g. {@code +1h}; null for none
     */
    synchronized void start(String skew) throws IOException {
        currentName = name() + "." + (processes.size() + 1);
        List<String> argv = new ArrayList<>(List.of(setup.java().toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Xmx192m", "--enable-native-access=ALL-UNNAMED", "-jar", setup.jar().toString(), "run",
                "--config", setup.config(index).toString(), "--plugins", setup.plugins().toString(),
                "--lease-timings-ms", setup.timings().asArgument()));
        ProcessBuilder pb = new ProcessBuilder(argv)
                .redirectOutput(setup.logFile(currentName).toFile())
                .redirectError(setup.logFile(currentName + ".err").toFile());
        if (skew != null) {
            pb.environment().put("LD_PRELOAD", LIBFAKETIME.toString());
            pb.environment().put("FAKETIME", skew);
            // The wall clock only: CLOCK_MONOTONIC an hour back would be before the boot. Without
            // FORCE_MONOTONIC_FIX=0, libfaketime's rework of timed waits returns every JVM timed wait at
            // once: the replica spins on both cores, starving its peers and the database (as ClockSkewIT).
            pb.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
            pb.environment().put("FAKETIME_FORCE_MONOTONIC_FIX", "0");
        }
        current = pb.start();
        processes.put(currentName, current);
        stopped = false;
    }

    /** Waits until the current process logs that it is up. */
    boolean awaitStarted(long timeoutMs) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        Path log = setup.logFile(currentName);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains("\"daemon.started\"")) {
                return true;
            }
            if (!current.isAlive()) {
                return false;
            }
            Thread.sleep(100);
        }
        return false;
    }

    synchronized boolean alive() {
        return current != null && current.isAlive();
    }

    synchronized void kill9() throws IOException, InterruptedException {
        Commands.signal(current.pid(), "KILL");
        current.waitFor();
    }

    /** SIGKILL without waiting, from a shutdown hook. */
    void destroyForcibly() {
        processes.values().forEach(Process::destroyForcibly);
    }

    synchronized void sigstop() throws IOException, InterruptedException {
        Commands.signal(current.pid(), "STOP");
        stopped = true;
    }

    synchronized void sigcont() throws IOException, InterruptedException {
        if (stopped) {
            Commands.signal(current.pid(), "CONT");
            stopped = false;
        }
    }

    /** SIGTERM, then waits for the exit (the daemon's shutdown grace and wind-down bound it). */
    void terminate(long timeoutMs) throws IOException, InterruptedException {
        Process p;
        synchronized (this) {
            sigcont();
            p = current;
        }
        if (p == null || !p.isAlive()) {
            return;
        }
        Commands.signal(p.pid(), "TERM");
        if (!p.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            ignoredTerm.add(currentName);
            Commands.signal(p.pid(), "KILL");
            p.waitFor();
        }
    }

    /** Every process of this replica that has ended, by name, with its exit status. */
    synchronized Map<String, Integer> exits() {
        Map<String, Integer> exits = new LinkedHashMap<>();
        processes.forEach((name, p) -> {
            if (!p.isAlive()) {
                exits.put(name, p.exitValue());
            }
        });
        return exits;
    }

    /** The processes that did not exit on SIGTERM in time and were killed. */
    synchronized List<String> ignoredTerm() {
        return List.copyOf(ignoredTerm);
    }

    synchronized List<String> processNames() {
        return List.copyOf(processes.keySet());
    }
}
