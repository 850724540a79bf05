package dev.leasecron.faults.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Plays a {@link FaultPlan} on a {@link Cluster}, one fault at a time, and counts what it injected. A
 * fault aimed at a holder waits a few seconds for one; when none shows up it is not injected.
 */
final class FaultPlayer {
    private static final long HOLDER_WAIT_MS = 4000;
    private static final long START_WAIT_MS = 60_000;

    private final Cluster cluster;
    private final Random random;
    private final PrintStream journal;
    private final Map<FaultKind, Integer> injected = new EnumMap<>(FaultKind.class);

    FaultPlayer(Cluster cluster, long seed, PrintStream journal) {
        this.cluster = cluster;
        this.random = new Random(seed ^ 0x5DEECE66DL); // its own stream: picking holders must not shift the plan
        this.journal = journal;
    }

    Map<FaultKind, Integer> play(FaultPlan plan) throws IOException, InterruptedException {
        long phaseStart = System.nanoTime();
        for (Fault fault : plan.faults()) {
            long wait = fault.atMs() - (System.nanoTime() - phaseStart) / 1_000_000;
            if (wait > 0) {
                Thread.sleep(wait);
            }
            journal.println(System.currentTimeMillis() + " " + fault);
            if (inject(fault)) {
                injected.merge(fault.kind(), 1, Integer::sum);
            } else {
                journal.println(System.currentTimeMillis() + "   not injected: no holder");
            }
        }
        return injected;
    }

    private boolean inject(Fault fault) throws IOException, InterruptedException {
        switch (fault.kind()) {
            case KILL_HOLDER -> {
                Optional<Replica> holder = awaitHolder(fault);
                if (holder.isEmpty()) {
                    return false;
                }
                holder.get().kill9();
                journal.println("   killed " + holder.get().name());
                Thread.sleep(fault.durationMs());
                holder.get().start(null);
                holder.get().awaitStarted(START_WAIT_MS);
            }
            case STOP_HOLDER -> {
                Optional<Replica> holder = awaitHolder(fault);
                if (holder.isEmpty()) {
                    return false;
                }
                holder.get().sigstop();
                journal.println("   stopped " + holder.get().name());
                Thread.sleep(fault.durationMs());
                holder.get().sigcont();
            }
            case DB_RESTART -> cluster.server().restart();
            case DB_STALL -> {
                cluster.proxy().pause();
                Thread.sleep(fault.durationMs());
                cluster.proxy().resume();
            }
            case DB_DROP -> cluster.proxy().dropAll();
            case CLOCK_SKEW -> {
                Replica r = cluster.replica(fault.replica());
                r.terminate(START_WAIT_MS);
                r.start(fault.ahead() ? "+1h" : "-1h");
                r.awaitStarted(START_WAIT_MS);
            }
            case ROLLING_RESTART -> {
                for (Replica r : cluster.replicas()) {
                    r.terminate(START_WAIT_MS);
                    r.start(null);
                    r.awaitStarted(START_WAIT_MS);
                }
            }
        }
        return true;
    }

    private Optional<Replica> awaitHolder(Fault fault) throws InterruptedException {
        long deadline = System.nanoTime() + HOLDER_WAIT_MS * 1_000_000;
        while (System.nanoTime() < deadline) {
            Optional<Replica> holder = cluster.holder(random);
            if (holder.isPresent()) {
                Thread.sleep(fault.jitterMs()); // land at different points of the round
                return holder;
            }
            Thread.sleep(20);
        }
        return Optional.empty();
    }
}
