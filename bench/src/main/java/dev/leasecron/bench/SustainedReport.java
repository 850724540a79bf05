package dev.leasecron.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The sustained cells and the ceilings, as the first section of RESULTS.md. */
final class SustainedReport {
    private SustainedReport() {}

    @SuppressWarnings("unchecked")
    static void append(StringBuilder md, Map<String, Object> run) {
        List<Map<String, Object>> cells = (List<Map<String, Object>>) run.get("sustained");
        if (cells == null || cells.isEmpty()) {
            return;
        }
        md.append("## Sustained load: every job every second\n\n");
        md.append("Workload ").append(run.get("sustained_workload")).append(". M jobs all on `* * * * * *` (peers: due every "
                + "second on the second), run by R replicas each a JVM of its own with a pool of 10 connections, for the "
                + "warm-up and then the measured seconds, without pause. leasecron: the shaded jar's `run` as deployed, the "
                + "example plugin's `hello` jobs (one INFO line per round), JSON logs at INFO into a file, `/metrics` on; "
                + "judged from its logs (`fire_delay_ms` of `round.start`, by the database clock). Peers: in the bench's "
                + "replica JVM (plain G1, 1 GiB heap), logging what they log at INFO into a file, each task body one INFO line; "
                + "fire delay from the task body. not run: instants of the measured seconds no replica started within 5 s "
                + "(leasecron) or before the cell stopped (peers). CPU: the replicas' processes and PostgreSQL's over the "
                + "measured seconds, per round run, and in cores; JIT: of the JVM CPU, the compiler threads' (leasecron) or the "
                + "JVM's compilation time (peers) within the measured seconds, what the warm-up left of the JIT's work. A step is clean with 0 not run, 0 duplicates and p99 ≤ 1 s; "
                + "the ceiling is the last clean step; `overload` cells offer leasecron twice its ceiling, then drop it "
                + "to the ceiling (its recovery).\n\n");
        md.append("| scheduler | jobs/s offered | rounds/s run | not run | duplicates | p50 ms | p99 ms | max ms "
                + "| JVM CPU ms/round | JIT ms while measured | DB CPU ms/round | JVM cores | DB cores | heap after GC MiB (all replicas) | clean | WARN/ERROR events |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (Map<String, Object> c : cells) {
            md.append("| ").append(c.get("scheduler"));
            if (c.containsKey("overload_of")) {
                md.append(" (overload: 2× ").append(c.get("overload_of")).append(')');
            }
            md.append(" | ").append(c.get("jobs"));
            if (c.containsKey("error")) {
                md.append(" | error: ").append(String.valueOf(c.get("error")).replace('|', '/')).append(" ||||||||||||||\n");
                continue;
            }
            md.append(" | ").append(fmt(c.get("rounds_per_s"), 0))
                    .append(" | ").append(fmt(c.get("not_run"), 0))
                    .append(" | ").append(fmt(c.get("duplicates"), 0))
                    .append(" | ").append(fmt(c.get("delay_p50_ms"), 0))
                    .append(" | ").append(fmt(c.get("delay_p99_ms"), 0))
                    .append(" | ").append(fmt(c.get("delay_max_ms"), 0))
                    .append(" | ").append(fmt(per(c.get("jvm_cpu_ms_per_1000_rounds")), 3))
                    .append(" | ").append(fmt(c.get("jit_ms_in_window"), 0))
                    .append(" | ").append(fmt(per(c.get("db_cpu_ms_per_1000_rounds")), 3))
                    .append(" | ").append(fmt(c.get("jvm_cpu_cores"), 2))
                    .append(" | ").append(fmt(c.get("db_cpu_cores"), 2))
                    .append(" | ").append(fmt(c.get("heap_after_gc_mib"), 0))
                    .append(" | ").append(Boolean.TRUE.equals(c.get("clean")) ? "yes" : "**no**")
                    .append(" | ").append(c.containsKey("warnings_in_window") ? c.get("warnings_in_window")
                            : c.containsKey("warnings") ? c.get("warnings") + " (whole run, warm-up included)" : "").append(" |\n");
        }
        for (Map<String, Object> c : cells) {
            if (c.get("recovery") instanceof Map<?, ?> r) {
                md.append("\nRecovery of ").append(c.get("scheduler")).append(" at ").append(c.get("jobs"))
                        .append(" jobs/s: its jobs file cut to ").append(r.get("jobs")).append(" jobs, then ")
                        .append(r.get("instants")).append(" instants judged from ").append(r.get("settle_s"))
                        .append(" s after the cut: ").append(fmt(r.get("rounds_per_s"), 0)).append(" rounds/s, not run ")
                        .append(fmt(r.get("not_run"), 0)).append(", duplicates ").append(fmt(r.get("duplicates"), 0))
                        .append(", p50 / p99 ").append(fmt(r.get("delay_p50_ms"), 0)).append(" / ")
                        .append(fmt(r.get("delay_p99_ms"), 0)).append(" ms, WARN/ERROR events ")
                        .append(r.get("warnings_in_window")).append(".\n");
            }
        }
        md.append("\nCeilings (jobs every second, R=").append(((Map<String, Object>) run.get("sustained_workload")).get("replicas"))
                .append(", clean): ").append(run.get("ceilings")).append("\n\n");
    }

    private static Double per(Object perThousand) {
        return perThousand instanceof Number n ? n.doubleValue() / 1000 : null;
    }

    private static String fmt(Object v, int decimals) {
        if (!(v instanceof Number n)) {
            return "—";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", n.doubleValue());
    }
}
