package dev.leasecron.faults.harness;

import dev.leasecron.faults.check.Accounting;
import dev.leasecron.faults.check.Violation;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The table printed at the end: one line per database, the faults by kind, and every violation with its seed. */
final class Summary {
    private Summary() {}

    static void print(List<RunResult> results, PrintStream out) {
        out.printf("%n%-14s %5s %6s %7s %6s %7s %7s %10s %9s %9s %10s %10s%n", "db", "runs", "faults", "rounds", "ran",
                "reruns", "skipped", "superseded", "caught_up", "unclaimed", "duplicates", "violations");
        Map<String, List<RunResult>> byDb = results.stream()
                .collect(Collectors.groupingBy(RunResult::db, java.util.TreeMap::new, Collectors.toList()));
        byDb.forEach((db, runs) -> out.printf("%-14s %5d %6d %7d %6d %7d %7d %10d %9d %9d %10d %10d%n", db, runs.size(),
                runs.stream().mapToInt(r -> r.injected().values().stream().mapToInt(Integer::intValue).sum()).sum(),
                runs.stream().mapToLong(r -> r.verdict().rounds()).sum(),
                sum(runs, Accounting.RAN), sum(runs, Accounting.RERUN), sum(runs, Accounting.SKIPPED),
                sum(runs, Accounting.SUPERSEDED), sum(runs, Accounting.CAUGHT_UP), sum(runs, Accounting.UNCLAIMED),
                runs.stream().mapToLong(r -> r.verdict().violations().stream().filter(Violation::duplicate).count()).sum(),
                runs.stream().mapToInt(r -> r.verdict().violations().size()).sum()));
        byDb.forEach((db, runs) -> {
            List<Long> resumed = runs.stream().map(RunResult::failoverResumeMs).filter(ms -> ms >= 0).sorted().toList();
            long failovers = runs.stream().mapToInt(r -> r.injected().getOrDefault(FaultKind.FAILOVER, 0)).sum();
            if (failovers > 0) {
                out.printf("%s: %d failovers; an instant claimed on the promoted primary %s ms after the promotion%s%n",
                        db, failovers, resumed.isEmpty() ? "never" : resumed.getFirst() + ".." + resumed.getLast()
                                + " (median " + resumed.get(resumed.size() / 2) + ")",
                        resumed.size() < failovers ? ", in " + resumed.size() + " of them within 20 s" : "");
            }
        });
        Map<FaultKind, Integer> kinds = new EnumMap<>(FaultKind.class);
        results.forEach(r -> r.injected().forEach((k, n) -> kinds.merge(k, n, Integer::sum)));
        out.println("faults injected by kind: " + kinds.entrySet().stream()
                .map(e -> e.getKey().label() + "=" + e.getValue()).collect(Collectors.joining(", ")));
        for (RunResult r : results) {
            r.verdict().violations().forEach(v -> out.println("VIOLATION " + r.db() + " seed " + r.seed() + ": " + v));
        }
    }

    private static long sum(List<RunResult> runs, Accounting a) {
        return runs.stream().mapToLong(r -> r.verdict().count(a)).sum();
    }
}
