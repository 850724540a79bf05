package dev.leasecron.faults.harness;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.faults.check.JobSchedule;
import dev.leasecron.faults.check.LogEvent;
import dev.leasecron.faults.check.LogReader;
import dev.leasecron.faults.check.Verdict;
import dev.leasecron.faults.check.Violation;
import dev.leasecron.faults.harness.ProbeSetup.ProbeJobSpec;
import dev.leasecron.faults.harness.ReplicatedPostgres.Replication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Three daemons on a PostgreSQL primary with a streaming standby, reached through a multi-host URL
 * ({@code targetServerType=primary}), the way a team runs PostgreSQL behind an operator. The
 * primary's processes are killed with SIGKILL mid-round and the standby is promoted 2 s later.
 *
 * <p>With synchronous replication the cluster rides it: no instant runs twice except a rerun of a
 * round cut short, every instant not run is logged, rounds resume within 20 s of the promotion, no
 * replica exits, and {@code /readyz} says not ready while no primary answers and ready after. With
 * the standby held back before the kill, asynchronous replication loses a round's finish and the
 * instant runs again, which the same checker reports; synchronous replication loses nothing.
 */
class FailoverIT {
    private static final String DATABASE = "failover";
    private static final Duration RESUME_WITHIN = Duration.ofSeconds(20);
    /**
     * How soon after the kill every {@code /readyz} answer is not ready: a replica's last good check
     * ended before the kill, and its result reads as down once older than the harness's refresh
     * (400 ms) plus a renewal attempt's wait (1 s); a little more for the answer on its way.
     */
    private static final long READINESS_REACTS_MS = 1500;
    /** Every 15 s, a 1 s round: the promoted primary's rerun sweep finds its lost finish long before the next instant. */
    private static final ProbeJobSpec RARE = new ProbeJobSpec(new JobSchedule("rare", 15), 1000);

    private Path runDir;
    private ReplicatedPostgres pair;
    private ReplicaSetup setup;
    private Cluster cluster;
    private final List<Integer> httpPorts = new ArrayList<>();
    private Readiness readiness;

    @BeforeEach
    void requirePostgres(TestInfo test) throws IOException {
        try {
            Path bin = PostgresServer.findBin();
            if (!Files.isExecutable(bin.resolve("pg_basebackup"))) {
                throw new IOException(bin.resolve("pg_basebackup") + " is missing");
            }
        } catch (IOException e) {
            String why = "PostgreSQL's server binaries are needed (apt-get install postgresql): " + e.getMessage();
            if (Boolean.parseBoolean(System.getenv("LEASECRON_TEST_REQUIRE_SERVERS"))) {
                throw new IllegalStateException(why, e);
            }
            Assumptions.abort(why);
        }
        runDir = moduleDir().resolve("target/failover").resolve(test.getTestMethod().orElseThrow().getName() + "-"
                + test.getDisplayName().replaceAll("[^A-Za-z0-9_.-]+", "_"));
        Servers.deleteTree(runDir);
        Files.createDirectories(runDir);
    }

    @AfterEach
    void stopEverything() throws Exception {
        if (readiness != null) {
            readiness.close();
        }
        if (cluster != null) {
            cluster.killAllQuietly();
        }
        if (pair != null) {
            pair.close();
        }
    }

    @Test
    void synchronousStandbyTakesOverMidRoundWithNoInstantRunTwice() throws Exception {
        long began = System.nanoTime();
        start(Replication.SYNC, ProbeSetup.JOBS);
        long from = cluster.dbNowMs() + 1000;

        Replica holder = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> cluster.holder(new Random()), Optional::isPresent).orElseThrow();
        long killedAt = System.currentTimeMillis();
        pair.crashPrimary();
        Thread.sleep(FaultPlan.PROMOTE_AFTER_MS); // the operator's failover delay, not a wait for anything
        long promotingAt = System.currentTimeMillis();
        pair.promoteStandby();
        long promotedAt = System.currentTimeMillis();
        long promotedDbMs = cluster.dbNowMs();

        long resumedAt = await().atMost(RESUME_WITHIN).pollInterval(Duration.ofMillis(50))
                .until(() -> firstRoundStartAfter(promotedAt), OptionalLong::isPresent).getAsLong();
        await().atMost(RESUME_WITHIN).pollInterval(Duration.ofMillis(100))
                .until(() -> readiness.allReadySince(promotedAt));
        long readyAgainAt = System.currentTimeMillis();
        // Instants up to 2 s after the rounds resumed are checked; the run goes on for the tail after them
        // so that none of them is in flight when the replicas stop.
        long to = promotedDbMs + (resumedAt - promotedAt) + 2000;
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200))
                .until(() -> cluster.dbNowMs() >= to + SeedRun.TAIL_MS);

        for (Replica r : cluster.replicas()) {
            assertTrue(r.alive(), r.name() + " exited during the failover: " + r.exits());
        }
        readiness.close();
        for (Replica r : cluster.replicas()) {
            r.terminate(30_000);
        }
        Verdict verdict = SeedRun.check(cluster, setup, ProbeSetup.schedules(), from, to, 0);
        for (Replica r : cluster.replicas()) {
            assertEquals(Map.of(r.name() + ".1", 0), r.exits(), r.name() + ": one process, ended by SIGTERM with 0");
        }
        assertTrue(verdict.ok(), "every instant once (a rerun only of a round cut short), every other one logged: "
                + verdict.violations());

        assertTrue(resumedAt - promotedAt <= RESUME_WITHIN.toMillis(), "rounds resumed " + (resumedAt - promotedAt)
                + " ms after the promotion");
        for (int port : httpPorts) {
            List<Probe> outage = readiness.answered(port, killedAt + READINESS_REACTS_MS, promotingAt);
            assertFalse(outage.isEmpty(), "port " + port + ": no readiness answer while no primary answered");
            assertTrue(outage.stream().noneMatch(Probe::ready), "port " + port + " said ready while no primary answered: "
                    + outage);
        }
        System.out.printf("%s sync: holder %s killed with the primary; rounds resumed %d ms after the promotion,"
                        + " every /readyz 200 again %d ms after it; not ready from %s after the kill; %s; %d s in all%n",
                getClass().getSimpleName(), holder.name(), resumedAt - promotedAt, readyAgainAt - promotedAt,
                readiness.firstNotReadyAfter(killedAt), verdict.accounted(), (System.nanoTime() - began) / 1_000_000_000L);
    }

    /**
     * The standby stops receiving WAL while a round of a job every 15 s runs, the round ends, the
     * primary dies and the standby is promoted, holding that round's claim but nothing after it.
     * Asynchronously, the round ended and its finish committed on the primary alone: the promoted
     * primary reruns the instant, and the checker reports the duplicate. Synchronously, the primary
     * answered no commit meanwhile that the standby lacks (those whose wait the statement's timeout
     * cancelled count as failed): the round gave its lease up unrenewed, and whatever runs after the
     * failover is a rerun of a round cut short, or nothing.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Replication.class)
    void standbyHeldBackMidRound(Replication replication) throws Exception {
        long began = System.nanoTime();
        List<ProbeJobSpec> jobs = Stream.concat(ProbeSetup.JOBS.stream(), Stream.of(RARE)).toList();
        start(replication, jobs);
        long from = cluster.dbNowMs() + 1000;

        long instant = await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(20))
                .until(() -> rareRoundInFlightOnBoth(from), OptionalLong::isPresent).getAsLong();
        pair.holdBackStandby();
        String rare = "rare " + Instant.ofEpochMilli(instant);
        LogEvent end = await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
                .until(() -> rareEvents("round.end", instant).findFirst(), Optional::isPresent).orElseThrow();
        if (replication == Replication.ASYNC) {
            // The round's finish commits too, on the primary alone.
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> finishedOnPrimary(instant));
        }
        pair.crashPrimary();
        Thread.sleep(FaultPlan.PROMOTE_AFTER_MS); // the operator's failover delay, not a wait for anything
        pair.promoteStandby();
        long promotedDbMs = cluster.dbNowMs();

        if (replication == Replication.ASYNC) {
            await().atMost(RESUME_WITHIN).pollInterval(Duration.ofMillis(100))
                    .until(() -> rareEvents("round.start", instant).anyMatch(LogEvent::rerun));
        }
        long to = promotedDbMs + 2000;
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200))
                .until(() -> cluster.dbNowMs() >= to + SeedRun.TAIL_MS);
        readiness.close();
        for (Replica r : cluster.replicas()) {
            r.terminate(30_000);
        }
        Verdict verdict = SeedRun.check(cluster, setup, ProbeSetup.schedules(jobs), from, to, 0);
        List<Violation> duplicates = verdict.violations().stream().filter(Violation::duplicate).toList();
        String violations = verdict.violations().stream().map(Violation::toString).collect(Collectors.joining("; "));
        if (replication == Replication.ASYNC) {
            assertEquals("ok", end.field("outcome").orElse(""), "the round ran to its end on the primary: " + end);
            assertTrue(duplicates.stream().anyMatch(v -> v.detail().equals(rare
                    + " ran again after its first round ran to its end")), "the checker reports " + rare + " run twice: "
                    + violations);
        } else {
            assertTrue(verdict.ok(), "every instant once (a rerun only of a round cut short), every other one logged: "
                    + violations);
            long unreplicated = cluster.replicas().stream().flatMap(r -> r.processNames().stream())
                    .flatMap(process -> lines(setup.logFile(process)))
                    .filter(line -> line.contains("its wait for a synchronous standby was cancelled")).count();
            assertTrue(unreplicated > 0, "a lease statement answered without the standby counted as failed");
        }
        System.out.printf("%s %s, standby held back mid-round of %s: round ended %s; %d duplicate(s), %d other"
                        + " violation(s): %s; %s; %d s in all%n", getClass().getSimpleName(), replication.label(), rare,
                end.field("outcome").orElse("?"), duplicates.size(), verdict.violations().size() - duplicates.size(),
                violations, verdict.accounted(), (System.nanoTime() - began) / 1_000_000_000L);
    }

    /** The pair, a fresh database with the probe's tables, and three replicas up and claiming every job. */
    private void start(Replication replication, List<ProbeJobSpec> jobs) throws Exception {
        pair = new ReplicatedPostgres(runDir, freePort(), freePort(), replication);
        pair.start();
        pair.recreateDatabase(DATABASE);
        try (Connection c = pair.connect(DATABASE)) {
            ProbeSetup.createTables(c, jobs);
        }
        Path plugins = runDir.resolve("plugins");
        ProbeSetup.writePluginJar(plugins.resolve("leasecron-probe.jar"));
        setup = new ReplicaSetup(Path.of(System.getProperty("java.home"), "bin", "java"), daemonJar(), plugins, runDir,
                Timings.HARNESS);
        String url = pair.replicaUrl(pair.backendPorts(), DATABASE);
        List<Replica> replicas = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            httpPorts.add(freePort());
            Files.writeString(setup.config(i), SeedRun.config(pair, url, i, httpPorts.getLast(), ProbeSetup.jobsYaml(jobs)));
            replicas.add(new Replica(i, setup));
        }
        cluster = new Cluster(replicas, pair, List.of(), DATABASE);
        for (Replica r : replicas) {
            r.start(null);
        }
        for (Replica r : replicas) {
            assertTrue(r.awaitStarted(60_000), r.name() + " did not start; see " + runDir);
        }
        // The window checked opens once the harness's usual jobs have been claimed, and not later for
        // the rare one: its first claim, up to 15 s away, is as good a round to fail over in as any.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> claimedJobs() >= ProbeSetup.JOBS.size());
        readiness = Readiness.start(httpPorts);
    }

    private int claimedJobs() throws SQLException {
        String names = ProbeSetup.JOBS.stream().map(j -> "'cron:" + j.schedule().name() + "'").collect(Collectors.joining(","));
        try (Connection c = pair.connect(DATABASE)) {
            return (int) single(c, "SELECT COUNT(*) FROM gst_leases WHERE slot_ms <> 0 AND name IN (" + names + ")")
                    .orElse(0);
        }
    }

    /**
     * The rare job's instant whose round runs now, once the standby has its claim too; only one in the
     * window checked, from {@code fromMs} (the job's first claim may come before it).
     */
    private OptionalLong rareRoundInFlightOnBoth(long fromMs) throws SQLException {
        String sql = "SELECT slot_ms FROM gst_leases WHERE name = 'cron:rare' AND slot_ms >= " + fromMs
                + " AND unfinished_slot_ms = slot_ms";
        try (Connection primary = pair.connect(DATABASE); Connection standby = pair.connectStandby(DATABASE)) {
            OptionalLong onPrimary = single(primary, sql);
            if (onPrimary.isEmpty() || !single(standby, sql).equals(onPrimary)) {
                return OptionalLong.empty();
            }
            // Not a finish on its way: the round has at least half its work ahead of it.
            boolean early = events("round.start").anyMatch(e -> e.job().equals("rare")
                    && e.field("instant").map(i -> Instant.parse(i).toEpochMilli() == onPrimary.getAsLong()).orElse(false)
                    && System.currentTimeMillis() - e.atMs() < RARE.workMs() / 2);
            return early ? onPrimary : OptionalLong.empty();
        }
    }

    private boolean finishedOnPrimary(long instant) throws SQLException {
        try (Connection c = pair.connect(DATABASE); PreparedStatement st = c.prepareStatement(
                "SELECT COUNT(*) FROM gst_leases WHERE name = 'cron:rare' AND slot_ms = ? AND unfinished_slot_ms = 0")) {
            st.setLong(1, instant);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getInt(1) == 1;
            }
        }
    }

    /** The rare job's {@code event} entries for {@code instant}, from every replica's log. */
    private Stream<LogEvent> rareEvents(String event, long instant) {
        return events(event).filter(e -> e.job().equals("rare")
                && e.field("instant").map(i -> Instant.parse(i).toEpochMilli() == instant).orElse(false));
    }

    private static Stream<String> lines(Path file) {
        try {
            return Files.readAllLines(file).stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static OptionalLong single(Connection c, String sql) throws SQLException {
        try (var st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
        }
    }

    /** When the first round started after {@code afterMs}, by the replicas' logs. */
    private OptionalLong firstRoundStartAfter(long afterMs) {
        return events("round.start").mapToLong(LogEvent::atMs).filter(at -> at > afterMs).min();
    }

    private Stream<LogEvent> events(String event) {
        return cluster.replicas().stream().flatMap(r -> r.processNames().stream()).flatMap(process -> {
            try {
                return LogReader.read(process, setup.logFile(process)).stream();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).filter(e -> e.event().equals(event));
    }

    private static Path moduleDir() {
        return Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    }

    private static Path daemonJar() {
        Path jar = moduleDir().resolveSibling("scheduler-app").resolve("target/leasecron.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: scheduler-app packages it before this module's tests");
        }
        return jar;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** One answer of {@code /readyz}: asked and answered (or given up) by the test's clock. */
    record Probe(int port, long askedMs, long answeredMs, int status) {
        boolean ready() {
            return status == 200;
        }
    }

    /** Asks every replica's {@code /readyz} every 50 ms, in the background, and keeps every answer. */
    static final class Readiness implements AutoCloseable {
        private final List<Probe> probes = new CopyOnWriteArrayList<>();
        private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        private final Thread poller;

        private Readiness(List<Integer> ports) {
            poller = Thread.ofVirtual().name("readyz-poller").start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    for (int port : ports) {
                        probes.add(ask(port));
                    }
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        static Readiness start(List<Integer> ports) {
            return new Readiness(List.copyOf(ports));
        }

        private Probe ask(int port) {
            long asked = System.currentTimeMillis();
            int status;
            try {
                status = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
                        .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException e) {
                status = -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                status = -1;
            }
            return new Probe(port, asked, System.currentTimeMillis(), status);
        }

        /** The answers of {@code port} asked at or after {@code fromMs} and answered before {@code toMs}. */
        List<Probe> answered(int port, long fromMs, long toMs) {
            return probes.stream().filter(p -> p.port() == port && p.askedMs() >= fromMs && p.answeredMs() < toMs).toList();
        }

        /** Whether every replica's last answer, asked after {@code sinceMs}, was ready. */
        boolean allReadySince(long sinceMs) {
            Map<Integer, Probe> last = probes.stream().filter(p -> p.askedMs() > sinceMs)
                    .collect(Collectors.toMap(Probe::port, p -> p, (a, b) -> b));
            return !last.isEmpty() && last.size() == probes.stream().map(Probe::port).distinct().count()
                    && last.values().stream().allMatch(Probe::ready);
        }

        /** How long after {@code sinceMs} each port first said not ready, for the report. */
        Map<Integer, Long> firstNotReadyAfter(long sinceMs) {
            return probes.stream().filter(p -> p.askedMs() >= sinceMs && !p.ready())
                    .collect(Collectors.toMap(Probe::port, p -> p.answeredMs() - sinceMs, Math::min, java.util.TreeMap::new));
        }

        @Override
        public void close() {
            poller.interrupt();
            try {
                poller.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
