package dev.leasecron.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark run: every cell (scheduler × jobs × replicas, each replica a JVM of its own) against the same
 * PostgreSQL, then the failover trials with real daemons, then {@code RESULTS.md}, {@code results.json}
 * and the charts. Run by {@code scripts/bench.sh}, which starts the database.
 */
public final class Bench {
    static final List<String> ALL = List.of("leasecron", "shedlock", "db-scheduler", "quartz");
    /** leasecron with the image's JVM flags and with plain {@code java -jar}; db-scheduler polling every 100 ms and 1 s. */
    static final List<String> SUSTAINED = List.of("leasecron", "leasecron-plain", "db-scheduler-100ms", "db-scheduler", "shedlock",
            "quartz");

    /** The prefix of the contenders that run {@code --baseline-jar} instead of this build's jar. */
    static final String BASELINE = "leasecron-baseline";

    public static void main(String[] args) throws Exception {
        Map<String, String> a = Args.parse(args);
        List<Integer> jobCounts = ints(a.getOrDefault("jobs", "1000,10000"));
        List<Integer> replicaCounts = ints(a.getOrDefault("replicas", "1,3"));
        List<String> schedulers = List.of(a.getOrDefault("schedulers", String.join(",", ALL)).split(","));
        List<Integer> periods = ints(a.getOrDefault("period", "10,30"));
        // Ten measured instants at 1,000 jobs: a young collection lands in a burst about one instant in
        // eight to ten, so three instants may or may not show the pause a user will see.
        List<Integer> measured = ints(a.getOrDefault("instants", "10,3"));
        // 20,000 rounds of warm-up at 1,000 jobs, 30,000 at 10,000: code run once per round is compiled
        // by C2 after some ten to fifteen thousand calls, and until then the bursts share the two cores
        // with the compiler threads; a deployed scheduler runs for days. (After ten instants of 1,000
        // rounds, C2 still compiled the rounds' own methods and took half the cell's CPU while measuring.)
        List<Integer> warmups = ints(a.getOrDefault("warmup", "20,3"));
        boolean failover = Boolean.parseBoolean(a.getOrDefault("failover", "true"));
        int trials = Integer.parseInt(a.getOrDefault("failover-trials", "1"));
        Path out = Path.of(a.getOrDefault("out", "bench/results"));
        Files.createDirectories(out);
        // The replicas' logs, GC logs and profiles (--jfr true) stay in --work for a look afterwards.
        Path work = a.containsKey("work") ? Files.createDirectories(Path.of(a.get("work"))) : Files.createTempDirectory("leasecron-bench");
        System.out.println("replicas' files in " + work);

        Map<String, Object> run = new LinkedHashMap<>();
        run.put("started", Instant.now().toString());
        run.put("machine", Machine.describe());
        run.put("load_at_start", Machine.loadAverage());
        Map<String, String> versions = versions();
        versions.put("postgresql", a.getOrDefault("pg-version", "?"));
        versions.put("java", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.version"));
        run.put("versions", versions);
        run.put("workload", Map.of("warmup_instants", warmups, "instants_measured", measured, "pool_per_replica", Cell.POOL_SIZE));

        // --append true keeps the cells and failover trials of the results.json already there (a cell
        // measured again replaces its old figures), so a long run can be taken in parts.
        List<Map<String, Object>> cells = new ArrayList<>();
        List<Map<String, Object>> failovers = new ArrayList<>();
        if (Boolean.parseBoolean(a.getOrDefault("append", "false")) && Files.exists(out.resolve("results.json"))) {
            Map<String, Object> old = read(out);
            cells.addAll(list(old.get("cells")));
            failovers.addAll(list(old.get("failover")));
            run.put("started", old.get("started"));
            run.put("load_at_start", old.get("load_at_start") + " (first part); " + run.get("load_at_start") + " (appended part)");
        }
        run.put("cells", cells);
        run.put("failover", failovers);
        sustained(a, run, work, out);
        boolean bursts = Boolean.parseBoolean(a.getOrDefault("bursts", "true"));
        for (int i = 0; bursts && i < jobCounts.size(); i++) {
            int jobs = jobCounts.get(i);
            int period = periods.get(Math.min(i, periods.size() - 1));
            int warmup = warmups.get(Math.min(i, warmups.size() - 1));
            int instants = measured.get(Math.min(i, measured.size() - 1));
            for (int replicas : replicaCounts) {
                for (String scheduler : schedulers) {
                    System.out.printf(Locale.ROOT, "%s: %s, %,d jobs, %d replica(s), every %d s...%n", Instant.now(), scheduler,
                            jobs, replicas, period);
                    Map<String, Object> cell = runCell(a, scheduler, jobs, replicas, period, warmup, instants, work);
                    System.out.println("  " + cell);
                    cells.removeIf(c -> Objects.equals(c.get("scheduler"), scheduler) && Objects.equals(c.get("jobs"), jobs)
                            && Objects.equals(c.get("replicas"), replicas));
                    cells.add(cell);
                    save(out, run);
                }
            }
        }

        if (failover) {
            failovers.clear();
            Failover f = new Failover(Path.of(a.getOrDefault("jar", "scheduler-app/target/leasecron.jar")), a.get("url"),
                    a.getOrDefault("user", "postgres"), work);
            for (int t = 0; t < trials; t++) {
                for (String signal : List.of("KILL", "TERM")) {
                    System.out.printf("%s: failover after SIG%s, trial %d...%n", Instant.now(), signal, t + 1);
                    Map<String, Object> r = f.trial(signal, t);
                    System.out.println("  " + r);
                    failovers.add(r);
                    save(out, run);
                }
            }
        }
        save(out, run);
        System.out.println("wrote " + out.resolve("RESULTS.md"));
    }

    /**
     * The sustained cells and the ceiling search: for each scheduler, M jobs every second at R replicas
     * for M in {@code --sustained} steps, up to the first step that is not clean (an instant not run, one
     * run twice, or p99 fire delay over 1 s); its ceiling is the last clean step. Then leasecron is
     * offered twice its ceiling, to show what overload does.
     */
    private static void sustained(Map<String, String> a, Map<String, Object> run, Path work, Path out) throws Exception {
        String stepsArg = a.getOrDefault("sustained", "500,1000,2000,4000,8000");
        if (stepsArg.equals("none")) {
            return;
        }
        List<Integer> steps = ints(stepsArg);
        List<String> schedulers = List.of(a.getOrDefault("sustained-schedulers", String.join(",", SUSTAINED)).split(","));
        int replicas = Integer.parseInt(a.getOrDefault("sustained-replicas", "3"));
        int warmup = Integer.parseInt(a.getOrDefault("sustained-warmup", "240"));
        int seconds = Integer.parseInt(a.getOrDefault("sustained-seconds", "30"));
        int period = Integer.parseInt(a.getOrDefault("sustained-period", "1"));
        boolean overload = Boolean.parseBoolean(a.getOrDefault("overload", "true"));
        // leasecron's cells dropped to this many jobs after their measured seconds (0: not); an overload
        // cell drops to the ceiling, to show the cluster comes back by itself.
        int recoverTo = Integer.parseInt(a.getOrDefault("sustained-recover-to", "0"));
        List<Map<String, Object>> cells = new ArrayList<>();
        Map<String, Object> ceilings = new LinkedHashMap<>();
        run.put("sustained", cells);
        run.put("ceilings", ceilings);
        run.put("sustained_workload", Map.of("replicas", replicas, "warmup_s", warmup, "measured_s", seconds, "steps", steps,
                "period_s", period));
        for (String scheduler : schedulers) {
            int ceiling = 0;
            for (int jobs : steps) {
                Map<String, Object> cell = sustainedCell(a, scheduler, jobs, period, replicas, warmup, seconds, recoverTo, work);
                cells.add(cell);
                save(out, run);
                if (!Boolean.TRUE.equals(cell.get("clean"))) {
                    break;
                }
                ceiling = jobs;
            }
            ceilings.put(scheduler, ceiling);
            if (overload && scheduler.startsWith(LeasecronContender.NAME)) {
                int under = Math.max(ceiling, steps.getFirst());
                Map<String, Object> cell = sustainedCell(a, scheduler, 2 * under, period, replicas, warmup, seconds, under, work);
                cell.put("overload_of", ceiling);
                cells.add(cell);
            }
            save(out, run);
        }
    }

    private static Map<String, Object> sustainedCell(Map<String, String> a, String scheduler, int jobs, int period, int replicas,
            int warmup, int seconds, int recoverTo, Path work) throws Exception {
        System.out.printf(Locale.ROOT, "%s: sustained, %s, %,d jobs every %d s, %d replica(s)...%n", Instant.now(), scheduler,
                jobs, period, replicas);
        Map<String, Object> cell = runSustained(a, scheduler, jobs, period, replicas, warmup, seconds, recoverTo, work);
        cell.put("clean", clean(cell));
        System.out.println("  " + cell);
        return cell;
    }

    /** No instant left out, none run twice, p99 fire delay within 1 s. */
    static boolean clean(Map<String, Object> cell) {
        return !cell.containsKey("error") && number(cell, "not_run") == 0 && number(cell, "duplicates") == 0
                && cell.get("delay_p99_ms") instanceof Number p99 && p99.doubleValue() <= 1000;
    }

    private static double number(Map<String, Object> cell, String key) {
        return cell.get(key) instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** Writes results.json and RESULTS.md with what is measured so far. */
    private static void save(Path out, Map<String, Object> run) throws IOException {
        run.put("load_at_end", Machine.loadAverage());
        run.put("ended", Instant.now().toString());
        Files.writeString(out.resolve("results.json"),
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(run));
        Report.write(out, run);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object o) {
        return o == null ? List.of() : (List<Map<String, Object>>) o;
    }

    /** Writes RESULTS.md and the charts again from a results.json: {@code Bench --report DIR}. */
    static Map<String, Object> read(Path dir) throws IOException {
        return new ObjectMapper().readValue(dir.resolve("results.json").toFile(), new TypeReference<>() {});
    }

    private static Map<String, Object> runCell(Map<String, String> a, String scheduler, int jobs, int replicas, int period,
            int warmup, int instants, Path work) throws Exception {
        // The cell's own JVM only coordinates: each replica runs in a JVM of its own (ReplicaProcess).
        List<String> args = new ArrayList<>(List.of("--period", Integer.toString(period), "--warmup", Integer.toString(warmup),
                "--instants", Integer.toString(instants)));
        long timeout = 180 + (long) (warmup + instants + 2) * period + jobs / 20;
        return runProcess(a, Cell.class, scheduler, jobs, replicas, args, work.resolve(scheduler + "-" + jobs + "-" + replicas), timeout);
    }

    /**
     * A sustained cell: every job due every second. leasecron runs as deployed ({@link DaemonCell}: the
     * daemon's jar, its logs and plugin); a peer in {@link Cell}'s replicas on plain G1 with its INFO logs
     * and one line per task body into a file.
     */
    static Map<String, Object> runSustained(Map<String, String> a, String scheduler, int jobs, int period, int replicas,
            int warmup, int seconds, int recoverTo, Path work) throws Exception {
        Path base = work.resolve("sustained-" + scheduler + "-" + jobs + "-" + replicas + (period == 1 ? "" : "-every-" + period + "s"));
        int historyRows = Integer.parseInt(a.getOrDefault("sustained-history", "0"));
        long timeout = 240 + warmup + seconds + jobs / 50 + (long) jobs * historyRows / 20_000
                + (recoverTo > 0 ? DaemonCell.RECOVERY_SETTLE_S + DaemonCell.RECOVERY_SECONDS + 5 + jobs / 50 : 0);
        if (scheduler.startsWith(LeasecronContender.NAME)) {
            // leasecron-baseline[-plain]: the same cell on another build's jar, for a before and after in one run.
            String jar = scheduler.startsWith(BASELINE) ? a.get("baseline-jar")
                    : a.getOrDefault("jar", "scheduler-app/target/leasecron.jar");
            if (jar == null) {
                throw new IllegalArgumentException(scheduler + " needs --baseline-jar PATH, the jar of the build to compare with");
            }
            return runProcess(a, DaemonCell.class, scheduler, jobs, replicas, List.of("--warmup", Integer.toString(warmup),
                    "--seconds", Integer.toString(seconds), "--period", Integer.toString(period), "--jar", jar,
                    "--history", Integer.toString(historyRows), "--recover-jobs", Integer.toString(recoverTo),
                    "--plugins", a.getOrDefault("plugins", "bench/target/plugins"), "--jfr", a.getOrDefault("jfr", "false")), base,
                    timeout);
        }
        Map<String, Object> cell = runProcess(a, Cell.class, scheduler, jobs, replicas, List.of("--period", Integer.toString(period),
                "--warmup", Integer.toString(Math.max(1, warmup / period)), "--instants", Integer.toString(seconds / period), "--log",
                "info"), base, timeout);
        cell.put("sustained", true);
        return cell;
    }

    private static Map<String, Object> runProcess(Map<String, String> a, Class<?> main, String scheduler, int jobs, int replicas,
            List<String> args, Path base, long timeout) throws Exception {
        Path result = Path.of(base + ".json");
        Path log = Path.of(base + ".log");
        // The cell judges the rounds of its measured seconds in memory: 2.4 million of them for 20,000
        // jobs over 120 s, more than 256 MiB holds.
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-Dlogback.configurationFile=bench-logback.xml", "-cp", System.getProperty("java.class.path"), main.getName(),
                "--scheduler", scheduler, "--jobs", Integer.toString(jobs), "--replicas", Integer.toString(replicas),
                "--url", a.get("url"), "--user", a.getOrDefault("user", "postgres"), "--out", result.toString()));
        cmd.addAll(args);
        if (a.containsKey("pgdata")) {
            cmd.addAll(List.of("--pgdata", a.get("pgdata")));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Map<String, Object> cell;
        if (!p.waitFor(timeout, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            cell = new LinkedHashMap<>();
            cell.put("error", "timed out after " + timeout + " s; log " + log);
        } else if (p.exitValue() != 0 || !Files.exists(result)) {
            cell = new LinkedHashMap<>();
            cell.put("error", "exit " + p.exitValue() + ": " + tail(log));
        } else {
            cell = new ObjectMapper().readValue(result.toFile(), new TypeReference<LinkedHashMap<String, Object>>() {});
        }
        cell.putIfAbsent("scheduler", scheduler);
        cell.putIfAbsent("jobs", jobs);
        cell.putIfAbsent("replicas", replicas);
        return cell;
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    }

    private static Map<String, String> versions() throws IOException {
        Properties p = new Properties();
        try (InputStream in = Bench.class.getResourceAsStream("/bench-versions.properties")) {
            p.load(in);
        }
        Map<String, String> m = new LinkedHashMap<>();
        p.stringPropertyNames().stream().sorted().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }

    private static List<Integer> ints(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::parseInt).toList();
    }
}
