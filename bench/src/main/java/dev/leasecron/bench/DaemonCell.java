package dev.leasecron.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * A sustained cell of leasecron as deployed: R replicas, each the shaded jar's {@code run} in a JVM of its
 * own ({@link DaemonReplica}), M jobs of the example plugin's type {@code hello} all on
 * {@code * * * * * *}, so M rounds are due every second for as long as the cell runs. After
 * {@code --warmup} seconds, {@code --seconds} instants are measured; the cell then stops the replicas
 * with SIGTERM and judges from their logs alone, as an operator would: every {@code round.start} of a
 * measured instant (its {@code fire_delay_ms}), the instants no replica ran, those run twice, and every
 * WARN or ERROR event. CPU is each replica's process and the benchmark PostgreSQL's over the same seconds.
 *
 * <p>With {@code --recover-jobs N}, the load then drops: every replica's jobs file is cut to its first N
 * jobs, as an operator's edit lands, and after {@link #RECOVERY_SETTLE_S} seconds
 * {@link #RECOVERY_SECONDS} instants of those N jobs are judged as the measured ones were
 * ({@code recovery} in the result): an overloaded cluster must come back to running every instant on
 * time by itself.
 */
public final class DaemonCell {
    private static final Pattern HISTOGRAM_TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");
    /** From the jobs file's cut to the first instant judged: the reload, and the backlog given up. */
    static final int RECOVERY_SETTLE_S = 30;
    static final int RECOVERY_SECONDS = 30;

    public static void main(String[] args) throws Exception {
        Map<String, String> a = Args.parse(args);
        String scheduler = a.get("scheduler");
        int jobs = Integer.parseInt(a.get("jobs"));
        int replicas = Integer.parseInt(a.get("replicas"));
        int warmup = Integer.parseInt(a.getOrDefault("warmup", "240"));
        int seconds = Integer.parseInt(a.getOrDefault("seconds", "30"));
        // Every job due every period seconds (a divisor of 60): 10,000 jobs every 10 s load the cluster as
        // 1,000 every second do, in bursts, with ten times the jobs held in each replica.
        int period = Integer.parseInt(a.getOrDefault("period", "1"));
        String schedule = period == 1 ? "* * * * * *" : "*/" + period + " * * * * *";
        Path out = Path.of(a.get("out"));
        Path pgData = a.containsKey("pgdata") ? Path.of(a.get("pgdata")) : null;
        boolean image = !scheduler.endsWith("-plain");
        List<String> flags = image ? DaemonReplica.IMAGE_FLAGS : DaemonReplica.PLAIN_FLAGS;

        // Rows per job already in the history when the replicas start, as a long-running cluster's purge
        // keeps them (history.maxRowsPerJob, 1,000 by default); 0, a cluster whose history is new.
        int historyRows = Integer.parseInt(a.getOrDefault("history", "0"));
        int recoverJobs = Integer.parseInt(a.getOrDefault("recover-jobs", "0"));

        HikariDataSource admin = Cell.pool(a, "admin", 2);
        new LeasecronContender().prepareSchema(admin);
        DbClock clock = DbClock.sync(admin);
        if (historyRows > 0) {
            fillHistory(admin, jobs, historyRows, clock.nowMs());
        }
        String base = out.getFileName().toString().replaceFirst("\\.json$", "");
        List<DaemonReplica> daemons = new ArrayList<>();
        try {
            for (int r = 0; r < replicas; r++) {
                daemons.add(DaemonReplica.start(Path.of(a.get("jar")), Path.of(a.get("plugins")), flags,
                        Boolean.parseBoolean(a.getOrDefault("jfr", "false")), a.get("url"),
                        a.getOrDefault("user", "postgres"), r, jobs, schedule, out.resolveSibling(base + "-r" + r)));
            }
            long startDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60 + jobs / 100);
            for (DaemonReplica d : daemons) {
                while (!d.started()) {
                    if (!d.alive() || System.nanoTime() > startDeadline) {
                        throw new IllegalStateException("replica did not start; see " + d.log + " and its .err");
                    }
                    Thread.sleep(100);
                }
            }
            CpuTimeline timeline = CpuTimeline.start(daemons.stream().map(DaemonReplica::pid).toList());
            MetricsScraper prometheus = MetricsScraper.start(daemons.stream().map(DaemonReplica::port).toList());
            long first = Math.ceilDiv(clock.nowMs() / 1000 + warmup + 1, period) * period * 1000;
            long last = first + (seconds - 1) * 1000L;
            // CPU over exactly the measured seconds, each taken half a second before its instant.
            Cell.sleepUntil(clock, first - 500);
            long[] cpuBefore = daemons.stream().mapToLong(DaemonReplica::cpuMillis).toArray();
            List<Map<String, Long>> threadsBefore = daemons.stream().map(d -> ProcCpu.millisByThread(d.pid())).toList();
            long dbBefore = pgData == null ? 0 : PostgresCpu.millis(pgData);
            Map<String, Long> dbKindsBefore = pgData == null ? Map.of() : PostgresCpu.millisByKind(pgData);
            Cell.sleepUntil(clock, last + 500);
            long[] cpuAfter = daemons.stream().mapToLong(DaemonReplica::cpuMillis).toArray();
            List<Map<String, Long>> threadsAfter = daemons.stream().map(d -> ProcCpu.millisByThread(d.pid())).toList();
            long dbAfter = pgData == null ? 0 : PostgresCpu.millis(pgData);
            Map<String, Long> dbKindsAfter = pgData == null ? Map.of() : PostgresCpu.millisByKind(pgData);
            // A round later than this is counted as not run: the ceiling's bar is p99 within 1 s anyway.
            Cell.sleepUntil(clock, last + 5_000);
            timeline.stop();
            Map<String, Object> scrapes = prometheus.stop();
            long heapBytes = 0;
            for (DaemonReplica d : daemons) {
                heapBytes += heapAfterGc(d);
            }
            long recoveryFirst = 0;
            long recoveryLast = 0;
            if (recoverJobs > 0) {
                for (DaemonReplica d : daemons) {
                    d.keepJobs(recoverJobs, schedule);
                }
                recoveryFirst = Math.ceilDiv(clock.nowMs() / 1000 + RECOVERY_SETTLE_S + 1, period) * period * 1000;
                recoveryLast = recoveryFirst + (RECOVERY_SECONDS - 1) * 1000L;
                Cell.sleepUntil(clock, recoveryLast + 5_000);
            }
            for (DaemonReplica d : daemons) {
                d.stop();
            }

            Map<String, Object> result = new LinkedHashMap<>();
            result.put("scheduler", scheduler);
            result.put("jobs", jobs);
            result.put("replicas", replicas);
            result.put("period_s", period);
            result.put("sustained", true);
            result.put("warmup_s", warmup);
            result.put("instants", seconds);
            result.putAll(judge(daemons, first, last, jobs, seconds, period));
            long jvmCpu = 0;
            for (int i = 0; i < daemons.size(); i++) {
                jvmCpu += cpuAfter[i] - cpuBefore[i];
            }
            long rounds = ((Number) result.get("rounds")).longValue();
            result.put("jvm_cpu_ms_per_1000_rounds", rounds == 0 ? null : jvmCpu * 1000.0 / rounds);
            result.put("db_cpu_ms_per_1000_rounds", pgData == null || rounds == 0 ? null : (dbAfter - dbBefore) * 1000.0 / rounds);
            result.put("jvm_cpu_cores", jvmCpu / 1000.0 / seconds);
            result.put("db_cpu_cores", pgData == null ? null : (dbAfter - dbBefore) / 1000.0 / seconds);
            Map<String, Long> byThread = grown(threadsBefore, threadsAfter);
            result.put("jvm_cpu_ms_by_thread", byThread);
            // The compiler threads' share: a cell measured while the JIT still compiles is the first
            // minutes of a daemon, not the steady state it runs in for days (cpu_timeline_10s shows when it settles).
            result.put("jit_ms_in_window", byThread.entrySet().stream().filter(e -> ProcCpu.jit(e.getKey()))
                    .mapToLong(Map.Entry::getValue).sum());
            result.put("db_cpu_ms_by_process", grown(List.of(dbKindsBefore), List.of(dbKindsAfter)));
            result.put("cpu_timeline_10s", timeline.points());
            result.put("metrics_scrapes", scrapes);
            result.put("heap_after_gc_mib", heapBytes / (1024.0 * 1024.0));
            result.put("history_rows_per_job_at_start", historyRows);
            if (recoverJobs > 0) {
                Map<String, Object> recovery = new LinkedHashMap<>();
                recovery.put("jobs", recoverJobs);
                recovery.put("settle_s", RECOVERY_SETTLE_S);
                recovery.put("instants", RECOVERY_SECONDS);
                recovery.putAll(judge(daemons, recoveryFirst, recoveryLast, recoverJobs, RECOVERY_SECONDS, period));
                result.put("recovery", recovery);
            }
            result.put("settings", "the shaded jar's run, " + (image ? "the image's JVM flags " : "plain java -jar ")
                    + String.join(" ", flags) + "; pool " + Cell.POOL_SIZE + "; jobs of the example plugin's type hello "
                    + "(one INFO line per round); JSON logs at INFO into a file; /metrics scraped every 30 s; judged from the logs");
            Files.writeString(out, new ObjectMapper().writeValueAsString(result));
            System.err.println(result);
        } finally {
            for (DaemonReplica d : daemons) {
                d.stop();
            }
            admin.close();
        }
    }

    /** Judges the instants from {@code first} to {@code last} of the first {@code jobs} jobs from the replicas' logs. */
    private static Map<String, Object> judge(List<DaemonReplica> daemons, long first, long last, int jobs, int seconds,
            int period) throws IOException {
        List<DaemonLog> logs = new ArrayList<>();
        for (DaemonReplica d : daemons) {
            // Events of the warm-up (the JIT still compiling) are not the load's: those of the
            // judged seconds and the 5 s after them count.
            logs.add(DaemonLog.read(d.log, first - 500, last + 5_000));
        }
        Map<Long, Integer> runs = new HashMap<>();
        List<Long> delays = new ArrayList<>();
        long reruns = 0;
        Map<String, Long> warnings = new TreeMap<>();
        long skipped = 0;
        long missed = 0;
        long lines = 0;
        for (DaemonLog log : logs) {
            for (DaemonLog.Fire f : log.fires) {
                if (f.instantMs() < first || f.instantMs() > last || f.job() >= jobs) {
                    continue;
                }
                if (f.rerun()) {
                    reruns++;
                }
                if (runs.merge(f.instantMs() * 1_000_000L + f.job(), 1, Integer::sum) == 1) {
                    delays.add(f.delayMillis());
                }
            }
            log.warnings.forEach((k, v) -> warnings.merge(k, v, Long::sum));
            skipped += log.skippedInstants;
            missed += log.missedInstants;
            lines += log.lines;
        }
        long[] sorted = delays.stream().mapToLong(Long::longValue).sorted().toArray();
        long expected = (long) jobs * Math.ceilDiv(seconds, period);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rounds", (long) runs.size());
        m.put("expected_rounds", expected);
        m.put("not_run", expected - runs.size());
        m.put("duplicates", runs.values().stream().mapToLong(n -> n - 1).sum());
        m.put("reruns", reruns);
        m.put("delay_p50_ms", quantile(sorted, 0.50));
        m.put("delay_p99_ms", quantile(sorted, 0.99));
        m.put("delay_max_ms", sorted.length == 0 ? null : (double) sorted[sorted.length - 1]);
        m.put("rounds_per_s", runs.size() / (double) seconds);
        m.put("logged_skipped_instants", skipped);
        m.put("logged_missed_instants", missed);
        m.put("warnings_in_window", warnings);
        m.put("log_lines", lines);
        return m;
    }

    /** What each name's CPU grew by between the two reads of each process, added up, the largest first. */
    private static Map<String, Long> grown(List<Map<String, Long>> before, List<Map<String, Long>> after) {
        Map<String, Long> sum = new HashMap<>();
        for (int i = 0; i < after.size(); i++) {
            Map<String, Long> b = before.get(i);
            after.get(i).forEach((name, ms) -> sum.merge(name, ms - b.getOrDefault(name, 0L), Long::sum));
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        sum.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    private static Double quantile(long[] sorted, double q) {
        return sorted.length == 0 ? null : (double) sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    }

    /**
     * {@code rows} ended rounds per job, one a second up to an hour before {@code nowMs} (inside the
     * retention, so the purge leaves them), in the table the daemon would create.
     */
    private static void fillHistory(DataSource admin, int jobs, int rows, long nowMs) throws SQLException {
        Leases schema = Leases.create(admin, LeaseTimings.DEFAULT, "bench-history", LeaseListener.NONE);
        schema.initialize();
        long newest = nowMs - 3_600_000L;
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO gst_history (name, instant_ms, term, last_instant_ms, instants, outcome, trigger_kind,"
                    + " holder, instance, started_ms, ended_ms, duration_ms, detail)"
                    + " SELECT 'job-' || j, " + newest + " - i * 1000, 1, " + newest + " - i * 1000, 1, 'ok', 'scheduled',"
                    + " 'bench', 'bench-0', " + newest + " - i * 1000, " + newest + " - i * 1000 + 1, 1, ''"
                    + " FROM generate_series(0, " + (jobs - 1) + ") AS j, generate_series(0, " + (rows - 1) + ") AS i");
            s.execute("VACUUM ANALYZE gst_history");
        }
    }

    /**
     * The live heap: the total of a class histogram, which {@code jcmd} takes right after a full
     * collection. Not the heap in use read by a second attach: a replica under load allocates hundreds
     * of megabytes a second in between (the 12,000 jobs/s overload cell read 463 MiB a replica that way,
     * over a live set of about 100).
     */
    private static long heapAfterGc(DaemonReplica d) throws IOException, InterruptedException {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        Process p = new ProcessBuilder(jcmd, Long.toString(d.pid()), "GC.class_histogram").redirectErrorStream(true).start();
        String histogram = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        Matcher m = HISTOGRAM_TOTAL.matcher(histogram);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
