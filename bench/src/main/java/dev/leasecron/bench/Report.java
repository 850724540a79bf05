package dev.leasecron.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * RESULTS.md and the PNG charts from one run's results. Every figure of a peer is given with its
 * ratio to leasecron's in the same cell (same jobs, same replicas): {@code 0.5×} is half leasecron's
 * figure, which is better for delays, statements, CPU and heap and worse for rounds per second.
 * {@code java -cp ... dev.leasecron.bench.Report DIR} writes them again from DIR/results.json.
 */
final class Report {
    /** A column of the table; {@code compared}: a peer's value is followed by its ratio to leasecron's. */
    private record Col(String key, String title, int decimals, boolean compared) {
        Col(String key, String title, int decimals) {
            this(key, title, decimals, true);
        }
    }

    private static final List<Col> COLUMNS = List.of(
            new Col("rounds_per_s", "rounds/s", 0),
            new Col("delay_p50_ms", "delay p50 ms", 1),
            new Col("delay_p99_ms", "delay p99 ms", 1),
            new Col("delay_max_ms", "delay max ms", 1),
            new Col("statements_per_round", "statements/round", 2),
            new Col("commits_per_round", "commits/round", 2),
            new Col("jvm_cpu_ms_per_1000_rounds", "JVM CPU ms/1,000 rounds", 0),
            new Col("db_cpu_ms_per_1000_rounds", "DB CPU ms/1,000 rounds", 0),
            new Col("heap_after_gc_mib", "heap after GC MiB", 0),
            new Col("jit_ms_in_window", "JIT ms while measured", 0, false));

    private Report() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "bench/results");
        write(dir, Bench.read(dir));
    }

    @SuppressWarnings("unchecked")
    static void write(Path dir, Map<String, Object> run) throws IOException {
        List<Map<String, Object>> cells = (List<Map<String, Object>>) run.get("cells");
        List<Map<String, Object>> failovers = (List<Map<String, Object>>) run.getOrDefault("failover", List.of());
        StringBuilder md = new StringBuilder();
        md.append("# leasecron side by side with ShedLock, db-scheduler and Quartz\n\n");
        md.append("Written by `scripts/bench.sh` (`bench/`). Run ").append(run.get("started")).append(" to ")
                .append(run.get("ended")).append(".\n\n");
        md.append("## Machine and versions\n\n");
        Map<String, Object> machine = (Map<String, Object>) run.get("machine");
        machine.forEach((k, v) -> md.append("- ").append(k).append(": ").append(v).append('\n'));
        md.append("- load average (1, 5, 15 min) at start: ").append(run.get("load_at_start"))
                .append("; at end: ").append(run.get("load_at_end")).append('\n');
        ((Map<String, Object>) run.get("versions")).forEach((k, v) -> md.append("- ").append(k).append(' ').append(v).append('\n'));
        md.append("- workload: ").append(run.get("workload")).append("\n\n");

        SustainedReport.append(md, run);
        md.append("## Throughput, delay and cost per round\n\n");
        md.append("M no-op jobs all due on the same second every `period s` seconds; R replicas per cell, each a JVM of its own "
                + "(G1, 1 GiB fixed heap) with its own pool of 10 connections; `warmup_instants` instants to warm up (one in runs before it was recorded), "
                + "then `instants_measured` instants. "
                + "Fire delay: the task body's start (local clock moved onto the database clock) minus the instant. "
                + "rounds/s: rounds of the measured instants / the sum over instants of their slowest round's delay. "
                + "Statements (JDBC `execute*` calls, a batch counts once), commits and CPU are counted over the measured "
                + "periods, idle time included, and divided by the rounds that started in them. "
                + "duplicates: a (job, instant) whose task started twice, warm-up included. "
                + "JIT ms while measured: what the JVM's compilers still spent over the measured periods (its compile-time counter), "
                + "CPU the bursts shared with them. JVM CPU, JIT and heap after GC are the replicas' JVMs added up. "
                + "Peers: `value (ratio×)` to leasecron in the same cell.\n\n");
        md.append("| jobs | R | period s | scheduler |");
        COLUMNS.forEach(c -> md.append(' ').append(c.title).append(" |"));
        md.append(" rounds run / due | duplicates |\n|---:|---:|---:|---|");
        COLUMNS.forEach(c -> md.append("---:|"));
        md.append("---:|---:|\n");
        for (Map<String, Object> cell : cells) {
            Map<String, Object> base = cells.stream().filter(c -> "leasecron".equals(c.get("scheduler"))
                    && Objects.equals(c.get("jobs"), cell.get("jobs")) && Objects.equals(c.get("replicas"), cell.get("replicas")))
                    .findFirst().orElse(Map.of());
            md.append(String.format(Locale.ROOT, "| %,d | %s | %s | %s |", num(cell.get("jobs")).longValue(), cell.get("replicas"),
                    cell.getOrDefault("period_s", ""), cell.get("scheduler")));
            if (cell.containsKey("error")) {
                md.append(" error: ").append(String.valueOf(cell.get("error")).replace("|", "/")).append(" |");
                md.append(" |".repeat(COLUMNS.size() + 1)).append('\n');
                continue;
            }
            for (Col c : COLUMNS) {
                Number v = num(cell.get(c.key));
                Number b = num(base.get(c.key));
                md.append(' ').append(fmt(v, c.decimals));
                if (c.compared && v != null && b != null && b.doubleValue() != 0 && !"leasecron".equals(cell.get("scheduler"))) {
                    md.append(String.format(Locale.ROOT, " (%s×)", ratio(v.doubleValue() / b.doubleValue())));
                }
                md.append(" |");
            }
            md.append(String.format(Locale.ROOT, " %s / %s | %s |\n", cell.get("rounds"), cell.get("expected_rounds"),
                    cell.get("duplicates")));
        }
        md.append("\nleasecron's rerun sweep over 10,000 jobs: ");
        md.append(cells.stream().filter(c -> "leasecron".equals(c.get("scheduler")) && num(c.get("jobs")).intValue() == 10_000
                && c.get("sweep_statements") != null).map(c -> c.get("sweep_statements") + " statement(s)").findFirst()
                .orElse("not measured in this run")).append(".\n\n");
        md.append("Settings per scheduler:\n\n");
        Set<String> seen = new LinkedHashSet<>();
        for (Map<String, Object> cell : cells) {
            if (cell.get("settings") != null && seen.add((String) cell.get("scheduler"))) {
                md.append("- ").append(cell.get("scheduler")).append(": ").append(cell.get("settings")).append('\n');
            }
        }

        md.append("\n## Failover (leasecron, two daemons, default timings: 15 s lease)\n\n");
        if (failovers.isEmpty()) {
            md.append("Not run (`--failover false`). Peers' failover is not measured.\n");
        } else {
            md.append("| signal to the holder mid-round | seconds to the rerun's `round.start` on the other replica |\n|---|---:|\n");
            for (Map<String, Object> f : failovers) {
                md.append("| SIG").append(f.get("signal")).append(" | ")
                        .append(f.containsKey("seconds") ? fmt(num(f.get("seconds")), 2) : "error: " + f.get("error")).append(" |\n");
            }
            md.append("\nSIGTERM runs with `shutdownGrace: 0s` (cut short at once); with a grace G the rerun comes G later. "
                    + "Peers' failover is not measured by this harness.\n");
        }

        md.append("\n## Targets\n\n");
        targets(md, cells, failovers);

        md.append("\n## Charts\n\n");
        for (Object jobs : cells.stream().map(c -> c.get("jobs")).distinct().toList()) {
            String delay = "delay-" + jobs + ".png";
            String rounds = "rounds-per-second-" + jobs + ".png";
            charts(dir, cells, num(jobs).intValue(), delay, rounds);
            md.append("![fire delay, ").append(jobs).append(" jobs](").append(delay).append(")\n\n");
            md.append("![rounds per second, ").append(jobs).append(" jobs](").append(rounds).append(")\n\n");
        }
        Files.writeString(dir.resolve("RESULTS.md"), md.toString());
    }

    private static void targets(StringBuilder md, List<Map<String, Object>> cells, List<Map<String, Object>> failovers) {
        List<String> rows = new ArrayList<>();
        for (Map<String, Object> c : lc(cells)) {
            if (num(c.get("replicas")).intValue() == 3) {
                rows.add(check("≥ 5,000 rounds/s, 3 replicas, " + jobs(c) + " jobs", num(c.get("rounds_per_s")), v -> v >= 5000));
            }
            if (num(c.get("jobs")).intValue() == 1000) {
                rows.add(check("fire delay p99 ≤ 50 ms, 1,000 jobs, R=" + c.get("replicas"), num(c.get("delay_p99_ms")), v -> v <= 50));
            }
            rows.add(check("≤ 3 statements per round, " + jobs(c) + " jobs, R=" + c.get("replicas"),
                    num(c.get("statements_per_round")), v -> v <= 3));
            if (num(c.get("jobs")).intValue() == 10_000 && num(c.get("replicas")).intValue() == 1) {
                rows.add(check("10,000 jobs in ≤ 256 MiB heap (after GC, R=1)", num(c.get("heap_after_gc_mib")), v -> v <= 256));
            }
            if (num(c.get("replicas")).intValue() == 3) {
                boolean thousand = num(c.get("jobs")).intValue() == 1000;
                rows.add(check("batched: fire delay p99 ≤ " + (thousand ? "100 ms" : "1 s") + ", " + jobs(c) + " jobs, R=3",
                        num(c.get("delay_p99_ms")), v -> v <= (thousand ? 100 : 1000)));
                rows.add(check("batched: ≤ 1 statement per round, " + jobs(c) + " jobs, R=3",
                        num(c.get("statements_per_round")), v -> v <= 1));
                boolean once = Objects.equals(c.get("rounds"), c.get("expected_rounds")) && num(c.get("duplicates")).longValue() == 0;
                rows.add("| batched: every instant once, " + jobs(c) + " jobs, R=3 | " + c.get("rounds") + " / "
                        + c.get("expected_rounds") + ", " + c.get("duplicates") + " duplicates | " + (once ? "met" : "**missed**") + " |");
            }
        }
        for (Map<String, Object> f : failovers) {
            boolean kill = "KILL".equals(f.get("signal"));
            rows.add(check(kill ? "failover ≤ 17 s after kill -9" : "failover ≤ 2 s after SIGTERM", num(f.get("seconds")),
                    v -> v <= (kill ? 17 : 2)));
        }
        for (Map<String, Object> c : lc(cells)) {
            for (String key : List.of("rounds_per_s", "delay_p99_ms")) {
                boolean higherBetter = key.equals("rounds_per_s");
                List<String> behind = new ArrayList<>();
                List<Map<String, Object>> peers = cells.stream().filter(p -> isPeer(p) && Objects.equals(p.get("jobs"), c.get("jobs"))
                        && Objects.equals(p.get("replicas"), c.get("replicas")) && num(p.get(key)) != null && num(c.get(key)) != null)
                        .toList();
                if (peers.isEmpty()) {
                    rows.add(String.format(Locale.ROOT, "| ahead of the peers on %s, %s jobs, R=%s | no peer in this run | not measured |",
                            higherBetter ? "rounds/s" : "delay p99", jobs(c), c.get("replicas")));
                    continue;
                }
                peers.forEach(p -> {
                            double lcv = num(c.get(key)).doubleValue();
                            double pv = num(p.get(key)).doubleValue();
                            if (higherBetter ? pv >= lcv : pv <= lcv) {
                                behind.add((String) p.get("scheduler"));
                            }
                        });
                rows.add(String.format(Locale.ROOT, "| ahead of the peers on %s, %s jobs, R=%s | %s | %s |",
                        higherBetter ? "rounds/s" : "delay p99", jobs(c), c.get("replicas"),
                        behind.isEmpty() ? "ahead" : "behind " + String.join(", ", behind), behind.isEmpty() ? "met" : "**missed**"));
            }
        }
        md.append("| target | measured | verdict |\n|---|---:|---|\n");
        rows.forEach(r -> md.append(r).append('\n'));
    }

    private static String jobs(Map<String, Object> cell) {
        return String.format(Locale.ROOT, "%,d", num(cell.get("jobs")).longValue());
    }

    /** Another scheduler: any leasecron variant is not a peer. */
    private static boolean isPeer(Map<String, Object> cell) {
        return !String.valueOf(cell.get("scheduler")).startsWith("leasecron");
    }

    private static List<Map<String, Object>> lc(List<Map<String, Object>> cells) {
        return cells.stream().filter(c -> "leasecron".equals(c.get("scheduler")) && !c.containsKey("error")).toList();
    }

    private static String check(String what, Number v, java.util.function.DoublePredicate ok) {
        if (v == null) {
            return "| " + what + " | n/a | not measured |";
        }
        return "| " + what + " | " + fmt(v, v.doubleValue() < 10 ? 3 : 1) + " | " + (ok.test(v.doubleValue()) ? "met" : "**missed**") + " |";
    }

    private static void charts(Path dir, List<Map<String, Object>> cells, int jobs, String delayFile, String roundsFile)
            throws IOException {
        List<Map<String, Object>> these = cells.stream().filter(c -> num(c.get("jobs")).intValue() == jobs).toList();
        List<String> groups = these.stream().map(c -> c.get("scheduler") + " R=" + c.get("replicas")).toList();
        Double[][] delays = new Double[these.size()][];
        for (int i = 0; i < these.size(); i++) {
            Map<String, Object> c = these.get(i);
            delays[i] = new Double[] {dbl(c.get("delay_p50_ms")), dbl(c.get("delay_p99_ms")), dbl(c.get("delay_max_ms"))};
        }
        BarChart.write(dir.resolve(delayFile), String.format(Locale.ROOT, "Fire delay, %,d jobs due on the same second", jobs),
                "ms after the instant", true, groups, List.of("p50", "p99", "max"), delays);
        List<String> schedulers = these.stream().map(c -> (String) c.get("scheduler")).distinct().toList();
        List<Object> replicas = these.stream().map(c -> c.get("replicas")).distinct().toList();
        Double[][] rounds = new Double[schedulers.size()][replicas.size()];
        for (int s = 0; s < schedulers.size(); s++) {
            for (int r = 0; r < replicas.size(); r++) {
                int si = s;
                int ri = r;
                rounds[s][r] = these.stream().filter(c -> c.get("scheduler").equals(schedulers.get(si))
                        && Objects.equals(c.get("replicas"), replicas.get(ri))).map(c -> dbl(c.get("rounds_per_s")))
                        .filter(Objects::nonNull).findFirst().orElse(null);
            }
        }
        BarChart.write(dir.resolve(roundsFile), String.format(Locale.ROOT, "Rounds per second cluster-wide, %,d jobs", jobs),
                "rounds/s", true, schedulers, replicas.stream().map(r -> r + " replica(s)").toList(), rounds);
    }

    private static Number num(Object o) {
        return o instanceof Number n ? n : null;
    }

    private static Double dbl(Object o) {
        return o instanceof Number n ? n.doubleValue() : null;
    }

    private static String fmt(Number v, int decimals) {
        if (v == null) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", v.doubleValue());
    }

    private static String ratio(double r) {
        return r >= 10 ? String.format(Locale.ROOT, "%.0f", r) : r >= 1 ? String.format(Locale.ROOT, "%.1f", r)
                : String.format(Locale.ROOT, "%.2f", r);
    }
}
