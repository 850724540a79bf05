package dev.leasecron.faults.check;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * No two rounds of one job hold the lease at once, read from the probe table alone: per job, the
 * committed probe transactions in term order never overlap by the database clock, no term commits
 * twice, and none commits after a later term did (the probe's high-water lock orders commits).
 */
final class TermOrderCheck {
    private TermOrderCheck() {}

    static void check(List<ProbeRow> rows, Consumer<Violation> out) {
        Map<String, List<ProbeRow>> byJob = rows.stream().collect(Collectors.groupingBy(ProbeRow::job));
        byJob.forEach((job, jobRows) -> {
            List<ProbeRow> ordered = jobRows.stream().sorted(Comparator.comparingLong(ProbeRow::term)).toList();
            for (int i = 0; i < ordered.size(); i++) {
                ProbeRow row = ordered.get(i);
                if (row.seenTerm() >= row.term()) {
                    out.accept(new Violation("term-order", job + " term " + row.term() + " (instant " + instant(row)
                            + ") committed after term " + row.seenTerm() + " had"));
                }
                if (i == 0) {
                    continue;
                }
                ProbeRow before = ordered.get(i - 1);
                if (before.term() == row.term()) {
                    out.accept(new Violation("term-order", job + " term " + row.term() + " committed two probe rows"));
                } else if (before.endMs() > row.startMs()) {
                    out.accept(new Violation("term-order", job + " term " + before.term() + " (instant " + instant(before)
                            + ") was still in its transaction at " + before.endMs() + " ms, after term " + row.term()
                            + " (instant " + instant(row) + ") began at " + row.startMs() + " ms"));
                }
            }
        });
    }

    private static String instant(ProbeRow row) {
        return java.time.Instant.ofEpochMilli(row.instantMs()).toString();
    }
}
