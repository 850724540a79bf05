package dev.leasecron.faults.harness;

import dev.leasecron.faults.check.InvariantChecker;
import dev.leasecron.faults.check.JobSchedule;
import dev.leasecron.faults.check.LogEvent;
import dev.leasecron.faults.check.LogReader;
import dev.leasecron.faults.check.ProbeRow;
import dev.leasecron.faults.check.Verdict;
import dev.leasecron.faults.check.Violation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One seed on one database: a fresh database, the replicas, the fault schedule, a quiet settling
 * period, a clean shutdown, then the checker over what was left behind. The window checked starts
 * once every replica is up and ends {@link #TAIL_MS} before the shutdown, so that no instant in it
 * is still in flight when the replicas stop.
 */
final class SeedRun {
    /** Longer than a lease, a rerun sweep and the overrunning job's round together. */
    static final long SETTLE_MS = 9000;
    static final long TAIL_MS = 7000;
    private static final long START_WAIT_MS = 60_000;
    private static final long TERM_WAIT_MS = 30_000;

    private final HarnessOptions options;
    private final DatabaseServer server;
    private final long seed;

    SeedRun(HarnessOptions options, DatabaseServer server, long seed) {
        this.options = options;
        this.server = server;
        this.seed = seed;
    }

    RunResult run() throws IOException, InterruptedException, SQLException {
        String database = "faults_" + seed;
        Path runDir = options.workDir().resolve(server.kind() + "-" + seed);
        Servers.deleteTree(runDir);
        Files.createDirectories(runDir);
        server.recreateDatabase(database);
        try (Connection c = server.connect(database)) {
            ProbeSetup.createTables(c);
        }
        Path plugins = runDir.resolve("plugins");
        ProbeSetup.writePluginJar(plugins.resolve("leasecron-probe.jar"));
        Timings timings = Timings.HARNESS;
        ReplicaSetup setup = new ReplicaSetup(options.java(), options.jar(), plugins, runDir, timings);
        FaultPlan plan = FaultPlan.generate(seed, options.phaseSeconds() * 1000L, options.replicas(), timings,
                server instanceof ReplicatedPostgres);
        long maxStall = plan.faults().stream().filter(f -> f.kind() == FaultKind.DB_STALL)
                .mapToLong(Fault::durationMs).max().orElse(0);

        List<TcpProxy> proxies = new ArrayList<>();
        try (PrintStream journal = new PrintStream(Files.newOutputStream(runDir.resolve("faults.log")), true)) {
            for (int backend : server.backendPorts()) {
                proxies.add(TcpProxy.start(0, backend));
            }
            plan.faults().forEach(journal::println);
            String url = server.replicaUrl(proxies.stream().map(TcpProxy::port).toList(), database);
            List<Replica> replicas = new ArrayList<>();
            for (int i = 1; i <= options.replicas(); i++) {
                Files.writeString(setup.config(i), config(i, url));
                replicas.add(new Replica(i, setup));
            }
            Cluster cluster = new Cluster(replicas, server, proxies, database);
            // A harness stopped by a signal must not leave replicas behind: they would hold the ports.
            Thread onExit = new Thread(cluster::killAllQuietly);
            Runtime.getRuntime().addShutdownHook(onExit);
            try {
                return play(cluster, setup, plan, journal, maxStall, runDir);
            } finally {
                cluster.killAll(); // only after a failure of the harness itself: a run stops them cleanly
                Runtime.getRuntime().removeShutdownHook(onExit);
            }
        } finally {
            proxies.forEach(TcpProxy::close);
        }
    }

    private RunResult play(Cluster cluster, ReplicaSetup setup, FaultPlan plan, PrintStream journal, long maxStall,
            Path runDir) throws IOException, InterruptedException, SQLException {
        List<Replica> replicas = cluster.replicas();
        String database = cluster.database();
        for (Replica r : replicas) {
            r.start(null);
        }
        for (Replica r : replicas) {
            if (!r.awaitStarted(START_WAIT_MS)) {
                throw new IOException(r.name() + " did not start; see " + runDir);
            }
        }
        // A job that has never run has nothing missed before its first claim: the window opens once
        // every job has been claimed.
        if (!cluster.awaitEveryJobClaimed(ProbeSetup.schedules().size(), START_WAIT_MS)) {
            throw new IOException("not every job was claimed within " + START_WAIT_MS + " ms; see " + runDir);
        }
        long from = cluster.dbNowMs() + 1000;
        FaultPlayer player = new FaultPlayer(cluster, seed, journal);
        Map<FaultKind, Integer> injected = player.play(plan);
        settle(cluster, journal);
        long to = cluster.dbNowMs() - TAIL_MS;
        for (Replica r : replicas) {
            r.terminate(TERM_WAIT_MS);
        }
        Verdict verdict = check(cluster, setup, ProbeSetup.schedules(), from, to, maxStall);
        boolean keep = !verdict.ok() || options.keepRuns();
        if (!keep) {
            server.dropDatabase(database);
            Servers.deleteTree(runDir);
        }
        return new RunResult(server.kind(), seed, injected, verdict, keep ? runDir : null, player.failoverResumeMs());
    }

    /**
     * Heals the cluster, then keeps it whole for {@link #SETTLE_MS}: a replica that exits meanwhile (one
     * that halted itself for work that would not stop under a lost lease) is started again, as
     * Kubernetes would restart its pod, so the instants of the settling period have replicas to claim
     * them or log them missed.
     */
    private static void settle(Cluster cluster, PrintStream journal) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + SETTLE_MS * 1_000_000;
        do {
            for (Replica r : cluster.heal()) {
                journal.println("   restarted " + r.name() + ", found exited while the cluster settled");
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
    }

    /**
     * The checker over a finished run of {@code cluster}'s replicas (every one stopped): the probe rows
     * on the server, every process's log and exit status, and each process that ignored SIGTERM.
     *
     * @param maxStall the longest database stall of the run, which may hold up a round's last statement
     */
    static Verdict check(Cluster cluster, ReplicaSetup setup, List<JobSchedule> jobs, long from, long to, long maxStall)
            throws IOException, SQLException {
        Timings timings = setup.timings();
        DatabaseServer server = cluster.server();
        List<ProbeRow> rows;
        try (Connection c = server.connect(cluster.database())) {
            rows = ProbeSetup.readRows(c);
        }
        List<LogEvent> events = new ArrayList<>();
        Map<String, Integer> exits = new HashMap<>();
        List<Violation> extra = new ArrayList<>();
        for (Replica r : cluster.replicas()) {
            for (String process : r.processNames()) {
                events.addAll(LogReader.read(process, setup.logFile(process)));
            }
            exits.putAll(r.exits());
            r.ignoredTerm().forEach(p -> extra.add(new Violation("shutdown", p + " did not exit on SIGTERM within "
                    + TERM_WAIT_MS + " ms")));
        }
        // The work's last guarded statement may be held up by a stall until its timeout.
        Duration bound = Duration.ofMillis(timings.graceMs() + maxStall).plus(timings.statementTimeout())
                .plusSeconds(1);
        Verdict v = new InvariantChecker(jobs, bound).check(from, to, rows, events, exits);
        if (extra.isEmpty()) {
            return v;
        }
        extra.addAll(0, v.violations());
        return new Verdict(v.rounds(), v.accounted(), extra);
    }

    private String config(int index, String url) {
        return config(server, url, index, options.httpPort(server.kind(), index), ProbeSetup.jobsYaml());
    }

    /** Replica {@code index}'s jobs file: the database at {@code url}, its instance name and port, and {@code jobsYaml}. */
    static String config(DatabaseServer server, String url, int index, int httpPort, String jobsYaml) {
        return "database:\n"
                + "  url: " + url + "\n"
                + "  username: " + server.user() + "\n"
                + "  password: \"" + server.password() + "\"\n"
                + "instance: r" + index + "\n"
                + "http:\n"
                + "  port: " + httpPort + "\n"
                + "shutdownGrace: 2s\n"
                + jobsYaml;
    }
}
