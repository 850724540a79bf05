package dev.leasecron.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * One cell of the table, in a JVM of its own so CPU time and heap are the cell's alone: one scheduler,
 * M jobs due every P seconds on the same second, R replicas (a pool of {@value #POOL_SIZE} connections
 * each). The first W instants after start warm up; the next K are measured. Writes one JSON object to
 * the file given with {@code --out}.
 */
public final class Cell {
    /** Connections per replica, and task threads where a scheduler has them: the same for all four. */
    static final int POOL_SIZE = 10;

    public static void main(String[] args) throws Exception {
        Map<String, String> a = Args.parse(args);
        String scheduler = a.get("scheduler");
        int jobs = Integer.parseInt(a.get("jobs"));
        int replicas = Integer.parseInt(a.get("replicas"));
        int period = Integer.parseInt(a.getOrDefault("period", "10"));
        int instants = Integer.parseInt(a.getOrDefault("instants", "3"));
        // Instants run before measuring: a deployed scheduler runs for days, its code compiled by the
        // JIT; the first bursts after start run largely interpreted and measure the JVM's warm-up.
        int warmupInstants = Integer.parseInt(a.getOrDefault("warmup", "20"));
        Path out = Path.of(a.get("out"));
        Path pgData = a.containsKey("pgdata") ? Path.of(a.get("pgdata")) : null;
        if (60 % period != 0) {
            throw new IllegalArgumentException("--period must divide 60 (a cron 0/P of seconds)");
        }

        HikariDataSource admin = pool(a, "admin", 2);
        Contender contender = Contender.named(scheduler);
        contender.prepareSchema(admin);
        DbClock clock = DbClock.sync(admin);
        Recorder recorder = new Recorder(clock, (warmupInstants + instants + 2) * jobs);
        StatementCounter counter = new StatementCounter();
        List<DataSource> pools = new ArrayList<>();
        for (int r = 0; r < replicas; r++) {
            pools.add(counter.wrap(pool(a, "replica-" + r, POOL_SIZE)));
        }

        long startNanos = System.nanoTime();
        contender.start(pools, jobs, period, recorder);
        double startupSeconds = (System.nanoTime() - startNanos) / 1e9;
        long p = period * 1000L;
        long firstDue = (Math.floorDiv(clock.nowMs() + 2000, p) + 1) * p;
        long firstMeasured = firstDue + warmupInstants * p;
        long lastMeasured = firstMeasured + (instants - 1) * p;
        long windowStart = firstMeasured - 250;
        long windowEnd = lastMeasured + p - 250;

        sleepUntil(clock, windowStart);
        Snapshot before = Snapshot.take(counter, recorder, pgData);
        sleepUntil(clock, windowEnd);
        Snapshot after = Snapshot.take(counter, recorder, pgData);
        // Let the last measured instant's stragglers report, up to one more period.
        long deadline = windowEnd + p;
        while (clock.nowMs() < deadline && countOf(recorder, lastMeasured) < jobs) {
            Thread.sleep(50);
        }
        long heapBytes = heapAfterGc();
        Long sweepStatements = null;
        if (scheduler.equals("leasecron")) {
            sweepStatements = LeasecronContender.sweepStatements(admin, jobs);
        }

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("scheduler", scheduler);
        result.put("jobs", jobs);
        result.put("replicas", replicas);
        result.put("period_s", period);
        result.put("warmup_instants", warmupInstants);
        result.put("instants", instants);
        result.putAll(delays(recorder, firstMeasured, lastMeasured, p, jobs, instants));
        long roundsInWindow = after.fires - before.fires;
        result.put("rounds_in_window", roundsInWindow);
        result.put("statements_in_window", after.statements - before.statements);
        result.put("statements_per_round", ratio(after.statements - before.statements, roundsInWindow));
        result.put("commits_per_round", ratio(after.commits - before.commits, roundsInWindow));
        result.put("jvm_cpu_ms_per_1000_rounds", ratio((after.cpuNanos - before.cpuNanos) / 1e6 * 1000, roundsInWindow));
        // What the JIT still compiled while measuring: CPU the bursts shared with the compiler threads.
        result.put("jit_ms_in_window", after.jitMillis - before.jitMillis);
        result.put("db_cpu_ms_per_1000_rounds", pgData == null ? null
                : ratio((after.dbCpuMs - before.dbCpuMs) * 1000.0, roundsInWindow));
        result.put("heap_after_gc_mib", heapBytes / (1024.0 * 1024.0));
        result.put("sweep_statements", sweepStatements);
        result.put("startup_s", startupSeconds);
        result.put("duplicates", recorder.duplicates.sum());
        result.put("clock_offset_us", clock.offsetMicros());
        result.put("clock_error_us", clock.errorMicros());
        result.put("settings", contender.settings());
        Files.writeString(out, new ObjectMapper().writeValueAsString(result));
        System.err.println(result);

        Thread stopper = Thread.ofPlatform().daemon().start(() -> {
            try {
                contender.stop();
            } catch (Exception e) {
                System.err.println("stop: " + e);
            }
        });
        stopper.join(15_000);
        Runtime.getRuntime().halt(0);
    }

    private static Map<String, Object> delays(Recorder recorder, long first, long last, long p, int jobs, int instants) {
        Map<Long, List<Long>> byInstant = new HashMap<>();
        Set<Long> unique = new HashSet<>();
        for (Recorder.Fire f : recorder.fires) {
            if (f.instantMs() >= first && f.instantMs() <= last && unique.add(f.instantMs() * 100_000L + f.job())) {
                byInstant.computeIfAbsent(f.instantMs(), k -> new ArrayList<>()).add(f.delayMicros());
            }
        }
        long[] all = byInstant.values().stream().flatMap(List::stream).mapToLong(Long::longValue).sorted().toArray();
        double drainSeconds = 0;
        long rounds = 0;
        for (List<Long> d : byInstant.values()) {
            drainSeconds += Math.max(1, d.stream().mapToLong(Long::longValue).max().orElse(0)) / 1e6;
            rounds += d.size();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rounds", rounds);
        m.put("expected_rounds", (long) jobs * instants);
        m.put("delay_p50_ms", quantile(all, 0.50));
        m.put("delay_p99_ms", quantile(all, 0.99));
        m.put("delay_max_ms", all.length == 0 ? null : all[all.length - 1] / 1000.0);
        // A burst of M rounds drains in its slowest round's delay: rounds per second cluster-wide.
        m.put("rounds_per_s", drainSeconds == 0 ? null : rounds / drainSeconds);
        Map<String, Object> perInstant = new java.util.TreeMap<>();
        byInstant.forEach((instant, d) -> perInstant.put(java.time.Instant.ofEpochMilli(instant).toString(),
                d.size() + " rounds, slowest " + d.stream().mapToLong(Long::longValue).max().orElse(0) / 1000 + " ms"));
        m.put("per_instant", perInstant);
        return m;
    }

    private static Double quantile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return null;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] / 1000.0;
    }

    private static Double ratio(double a, long b) {
        return b == 0 ? null : a / b;
    }

    private static long countOf(Recorder recorder, long instantMs) {
        return recorder.fires.stream().filter(f -> f.instantMs() == instantMs).map(Recorder.Fire::job).distinct().count();
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void sleepUntil(DbClock clock, long dbMs) throws InterruptedException {
        long left;
        while ((left = dbMs - clock.nowMs()) > 0) {
            Thread.sleep(Math.min(left, 1000));
        }
    }

    static HikariDataSource pool(Map<String, String> a, String name, int size) {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(a.get("url"));
        c.setUsername(a.getOrDefault("user", "postgres"));
        if (a.containsKey("password")) {
            c.setPassword(a.get("password"));
        }
        c.setMaximumPoolSize(size);
        c.setMinimumIdle(size);
        c.setConnectionTimeout(30_000);
        c.setPoolName(name);
        return new HikariDataSource(c);
    }

    /** Counters at one moment. */
    record Snapshot(long statements, long commits, long fires, long cpuNanos, long jitMillis, long dbCpuMs) {
        static Snapshot take(StatementCounter counter, Recorder recorder, Path pgData) {
            long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
            return new Snapshot(counter.statements(), counter.commits(), recorder.started.sum(), cpu,
                    ManagementFactory.getCompilationMXBean().getTotalCompilationTime(),
                    pgData == null ? 0 : PostgresCpu.millis(pgData));
        }
    }

    static String describe(long[] xs) {
        return Arrays.toString(xs);
    }
}
