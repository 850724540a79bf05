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
        Path work = Files.createTempDirectory("leasecron-bench");

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
        for (int i = 0; i < jobCounts.size(); i++) {
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
        Path result = work.resolve(scheduler + "-" + jobs + "-" + replicas + ".json");
        Path log = work.resolve(scheduler + "-" + jobs + "-" + replicas + ".log");
        // The cell's own JVM only coordinates: each replica runs in a JVM of its own (ReplicaProcess).
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dlogback.configurationFile=bench-logback.xml", "-cp", System.getProperty("java.class.path"), Cell.class.getName(),
                "--scheduler", scheduler, "--jobs", Integer.toString(jobs), "--replicas", Integer.toString(replicas),
                "--period", Integer.toString(period), "--warmup", Integer.toString(warmup),
                "--instants", Integer.toString(instants),
                "--url", a.get("url"), "--user", a.getOrDefault("user", "postgres"), "--out", result.toString()));
        if (a.containsKey("pgdata")) {
            cmd.addAll(List.of("--pgdata", a.get("pgdata")));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long timeout = 180 + (long) (warmup + instants + 2) * period + jobs / 20;
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
