package dev.leasecron.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One cell of the table: one scheduler, M jobs due every P seconds on the same second, R replicas,
 * each a {@link Replica} process of its own with a pool of {@value #POOL_SIZE} connections, as replicas
 * are deployed. This JVM prepares the schema, tells the replicas which instants to measure (the first
 * W after start warm up, the next K are measured), and merges what they wrote into one JSON object in
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
        Contender.named(scheduler).prepareSchema(admin);
        DbClock clock = DbClock.sync(admin);
        String base = out.getFileName().toString().replaceFirst("\\.json$", "");
        List<ReplicaProcess> processes = new ArrayList<>();
        try {
            for (int r = 0; r < replicas; r++) {
                processes.add(ReplicaProcess.start(a, scheduler, r, jobs, period, out.resolveSibling(base + "-r" + r)));
            }
            for (ReplicaProcess r : processes) {
                r.awaitStarted(120 + jobs / 50);
            }
            long p = period * 1000L;
            long firstDue = (Math.floorDiv(clock.nowMs() + 2000, p) + 1) * p;
            long firstMeasured = firstDue + warmupInstants * p;
            long lastMeasured = firstMeasured + (instants - 1) * p;
            long windowStart = firstMeasured - 250;
            long windowEnd = lastMeasured + p - 250;
            // The last measured instant's stragglers may report up to one more period.
            long deadline = windowEnd + p;
            processes.forEach(r -> r.window(windowStart, windowEnd, lastMeasured, deadline));

            sleepUntil(clock, windowStart);
            long dbCpuBefore = pgData == null ? 0 : PostgresCpu.millis(pgData);
            sleepUntil(clock, windowEnd);
            long dbCpuAfter = pgData == null ? 0 : PostgresCpu.millis(pgData);
            while (clock.nowMs() < deadline && processes.stream().mapToLong(ReplicaProcess::lastCount).sum() < jobs) {
                Thread.sleep(50);
            }
            processes.forEach(ReplicaProcess::stop);
            for (ReplicaProcess r : processes) {
                r.awaitDone(60);
            }

            List<Recorder.Fire> fires = new ArrayList<>();
            List<Map<String, Object>> counters = new ArrayList<>();
            for (ReplicaProcess r : processes) {
                fires.addAll(r.fires());
                counters.add(r.counters());
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("scheduler", scheduler);
            result.put("jobs", jobs);
            result.put("replicas", replicas);
            result.put("period_s", period);
            result.put("warmup_instants", warmupInstants);
            result.put("instants", instants);
            result.putAll(delays(fires, firstMeasured, lastMeasured, jobs, instants, period == 1));
            long roundsInWindow = sum(counters, "rounds");
            result.put("rounds_in_window", roundsInWindow);
            result.put("statements_in_window", sum(counters, "statements"));
            result.put("statements_per_round", ratio(sum(counters, "statements"), roundsInWindow));
            result.put("commits_per_round", ratio(sum(counters, "commits"), roundsInWindow));
            result.put("jvm_cpu_ms_per_1000_rounds", ratio(sum(counters, "cpu_ns") / 1e6 * 1000, roundsInWindow));
            // What the JIT still compiled while measuring: CPU the bursts shared with the compiler threads.
            result.put("jit_ms_in_window", sum(counters, "jit_ms"));
            result.put("db_cpu_ms_per_1000_rounds", pgData == null ? null : ratio((dbCpuAfter - dbCpuBefore) * 1000.0, roundsInWindow));
            double windowSeconds = (windowEnd - windowStart) / 1000.0;
            result.put("jvm_cpu_cores", sum(counters, "cpu_ns") / 1e9 / windowSeconds);
            result.put("db_cpu_cores", pgData == null ? null : (dbCpuAfter - dbCpuBefore) / 1000.0 / windowSeconds);
            // The cluster's heap: every replica's, added up.
            result.put("heap_after_gc_mib", sum(counters, "heap_after_gc_bytes") / (1024.0 * 1024.0));
            result.put("sweep_statements", scheduler.equals("leasecron") ? LeasecronContender.sweepStatements(admin, jobs) : null);
            result.put("startup_s", counters.stream().mapToDouble(c -> ((Number) c.get("startup_s")).doubleValue()).max().orElse(0));
            result.put("duplicates", fires.size() - fires.stream().map(f -> f.instantMs() * 100_000L + f.job()).distinct().count());
            // The clocks the delays were measured with: each replica's, not this JVM's.
            result.put("clock_offset_us", counters.stream().map(c -> c.get("clock_offset_us")).toList());
            result.put("clock_error_us", counters.stream().map(c -> c.get("clock_error_us")).toList());
            result.put("settings", counters.get(0).get("settings") + "; each replica a JVM of its own");
            Files.writeString(out, new ObjectMapper().writeValueAsString(result));
            System.err.println(result);
        } finally {
            processes.forEach(ReplicaProcess::destroy);
        }
        admin.close();
    }

    private static long sum(List<Map<String, Object>> counters, String key) {
        return counters.stream().mapToLong(c -> ((Number) c.get(key)).longValue()).sum();
    }

    private static Map<String, Object> delays(List<Recorder.Fire> fires, long first, long last, int jobs, int instants,
            boolean sustained) {
        Map<Long, List<Long>> byInstant = new HashMap<>();
        Set<Long> unique = new HashSet<>();
        for (Recorder.Fire f : fires) {
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
        m.put("not_run", (long) jobs * instants - rounds);
        m.put("delay_p50_ms", quantile(all, 0.50));
        m.put("delay_p99_ms", quantile(all, 0.99));
        m.put("delay_max_ms", all.length == 0 ? null : all[all.length - 1] / 1000.0);
        // A burst of M rounds drains in its slowest round's delay: rounds per second cluster-wide. Due
        // every second, the rate is what the instants held.
        m.put("rounds_per_s", drainSeconds == 0 ? null : sustained ? rounds / (double) instants : rounds / drainSeconds);
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

    static void sleepUntil(DbClock clock, long dbMs) throws InterruptedException {
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
}
