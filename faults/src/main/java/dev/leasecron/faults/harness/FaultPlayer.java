package dev.leasecron.faults.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
    /**
     * How long a standby held back receives nothing before the primary dies: time for a round or two
     * of the per-second jobs, and past the statements' 1 s timeout.
     */
    static final long FAILOVER_HOLD_BACK_MS = 1500;
    private static final long RESUME_WAIT_MS = 20_000;

    private final Cluster cluster;
    private final Random random;
    private final PrintStream journal;
    private final Map<FaultKind, Integer> injected = new EnumMap<>(FaultKind.class);
    private long failoverResumeMs = -1;

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
                cluster.stallDatabase();
                Thread.sleep(fault.durationMs());
                cluster.resumeDatabase();
            }
            case DB_DROP -> cluster.dropConnections();
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
            case FAILOVER -> {
                if (!(cluster.server() instanceof ReplicatedPostgres pair) || !pair.hasStandby()) {
                    return false;
                }
                Optional<Replica> holder = awaitHolder(fault);
                if (holder.isEmpty()) {
                    return false;
                }
                journal.println("   mid-round of " + holder.get().name());
                // Always for an asynchronous standby, whose lag is what is lost; for a synchronous one on
                // half the seeds, so that the commits the primary answers while it waits are tried too.
                boolean holdBack = pair.replication() == ReplicatedPostgres.Replication.ASYNC || fault.ahead();
                try {
                    pair.failover(holdBack ? FAILOVER_HOLD_BACK_MS : 0, fault.durationMs(), journal);
                } catch (SQLException e) {
                    throw new IOException("the failover could not hold the standby back", e);
                }
                awaitResumed();
            }
        }
        return true;
    }

    /**
     * Waits until some job's instant after the promotion is claimed on the promoted primary, and
     * notes how long that took; the next fault waits for it too, so the cluster rides one thing at a time.
     */
    private void awaitResumed() throws InterruptedException {
        long promoted = System.nanoTime();
        long promotedAtMs = -1;
        while (System.nanoTime() - promoted < RESUME_WAIT_MS * 1_000_000) {
            try (Connection c = cluster.server().connect(cluster.database()); Statement st = c.createStatement()) {
                if (promotedAtMs < 0) {
                    promotedAtMs = cluster.dbNowMs();
                }
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM gst_leases WHERE slot_ms > " + promotedAtMs)) {
                    if (rs.next() && rs.getInt(1) > 0) {
                        failoverResumeMs = (System.nanoTime() - promoted) / 1_000_000;
                        journal.println(System.currentTimeMillis() + "   rounds resumed " + failoverResumeMs
                                + " ms after the promotion");
                        return;
                    }
                }
            } catch (SQLException notYet) {
                // the promoted server is still finishing its promotion
            }
            Thread.sleep(50);
        }
        journal.println(System.currentTimeMillis() + "   no instant claimed within " + RESUME_WAIT_MS
                + " ms of the promotion");
    }

    /** How long after a failover's promotion the first claim of a later instant came; -1 when none did. */
    long failoverResumeMs() {
        return failoverResumeMs;
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
