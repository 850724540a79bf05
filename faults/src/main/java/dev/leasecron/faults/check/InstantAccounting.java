package dev.leasecron.faults.check;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Every instant of every job in the window is accounted for exactly one way (see {@link Accounting}),
 * from the probe table and the logs together: nothing silently missing, no instant claimed twice,
 * never more than one rerun, and a rerun only of a round that did not run to its end.
 */
final class InstantAccounting {
    /** How soon after a round's end line its process must have gone quiet to count as killed there. */
    private static final long DIED_WITHIN_MS = 1_000;
    private final Map<String, List<LogEvent>> starts = new HashMap<>();
    private final Map<String, List<LogEvent>> ends = new HashMap<>();
    private final Map<String, List<ProbeRow>> rows = new HashMap<>();
    private final Map<String, List<long[]>> skippedRanges = new HashMap<>();
    private final Map<String, List<long[]>> missedRanges = new HashMap<>();
    private final Set<String> endUncertain = new HashSet<>();
    private final Set<String> superseded = new HashSet<>();
    private final Set<String> caughtUp = new HashSet<>();
    private final Map<String, List<long[]>> unclaimedRanges = new HashMap<>();
    /**
     * Per job, the instants a later claim read as the last on record; unless it logged them
     * superseded, they had ended.
     */
    private final Map<String, Set<Long>> lastOnRecord = new HashMap<>();
    private final Map<String, List<LogEvent>> endsByJob = new HashMap<>();
    /** When each process wrote its last entry, by its own clock. */
    private final Map<String, Long> lastEntryMs = new HashMap<>();
    /** Instants an overrun took along on record, whose process died before logging them skipped. */
    private final Map<String, List<long[]>> skippedUnlogged = new HashMap<>();

    private InstantAccounting(List<ProbeRow> probeRows, List<LogEvent> events) {
        probeRows.forEach(r -> rows.computeIfAbsent(key(r.job(), r.instantMs()), k -> new ArrayList<>()).add(r));
        for (LogEvent e : events) {
            lastEntryMs.merge(e.process(), e.atMs(), Math::max);
            switch (e.event()) {
                case "round.start" -> {
                    starts.computeIfAbsent(key(e.job(), instantOf(e, "instant")), k -> new ArrayList<>()).add(e);
                    e.field("last_on_record").filter(l -> !l.equals("null")).map(l -> Instant.parse(l).toEpochMilli())
                            .ifPresent(l -> lastOnRecord.computeIfAbsent(e.job(), k -> new HashSet<>()).add(l));
                }
                case "round.end" -> {
                    ends.computeIfAbsent(key(e.job(), instantOf(e, "instant")), k -> new ArrayList<>()).add(e);
                    endsByJob.computeIfAbsent(e.job(), k -> new ArrayList<>()).add(e);
                }
                // A round whose end may not be on record (the finish failed, or came after the lease ran
                // out) may be rerun like a crashed one: the spec allows that rerun, and does not require it,
                // since a finish whose answer was lost may have landed.
                case "round.finish_failed" -> endUncertain.add(e.job() + "#" + e.term());
                case "lease.lost" -> endUncertain.add(e.field("lease").map(l -> l.replaceFirst("^cron:", ""))
                        .orElse(e.job()) + "#" + e.term());
                case "instant.superseded" -> superseded.add(key(e.job(), instantOf(e, "instant")));
                case "instant.caught_up" -> caughtUp.add(key(e.job(), instantOf(e, "instant")));
                // One entry names the instants from "instant" to "last", or "instant" alone.
                case "instant.unclaimed" -> {
                    long first = instantOf(e, "instant");
                    long last = e.field("last").isPresent() ? instantOf(e, "last") : first;
                    unclaimedRanges.computeIfAbsent(e.job(), k -> new ArrayList<>()).add(new long[] {first, last});
                }
                case "instant.missed" -> addRange(missedRanges, e);
                case "instant.skipped" -> addRange(skippedRanges, e);
                default -> { }
            }
        }
        lastOnRecord.forEach((job, read) -> read.forEach(l -> skippedButNotLogged(job, l)));
    }

    /**
     * An instant no round claimed, read by a later claim as the last on record, was taken along by the
     * finish of the job's round before it (an overrun); the skip is on record but not in the log when
     * that round's process ended within {@link #DIED_WITHIN_MS} of the round's end line: killed between
     * the end line and the skip line. A process that lived on and never logged the skip still fails.
     */
    private void skippedButNotLogged(String job, long readMs) {
        if (starts.containsKey(key(job, readMs))) {
            return;
        }
        endsByJob.getOrDefault(job, List.of()).stream()
                .filter(end -> instantOf(end, "instant") < readMs)
                .max(Comparator.comparingLong(end -> instantOf(end, "instant")))
                .filter(end -> lastEntryMs.get(end.process()) - end.atMs() <= DIED_WITHIN_MS)
                .ifPresent(end -> skippedUnlogged.computeIfAbsent(job, k -> new ArrayList<>())
                        .add(new long[] {instantOf(end, "instant") + 1, readMs}));
    }

    static Map<Accounting, Long> check(List<JobSchedule> jobs, long fromMs, long toMs, List<ProbeRow> probeRows,
            List<LogEvent> events, Consumer<Violation> out) {
        InstantAccounting accounting = new InstantAccounting(probeRows, events);
        Map<Accounting, Long> counts = new EnumMap<>(Accounting.class);
        for (JobSchedule job : jobs) {
            job.instants(fromMs, toMs).forEach(instant -> {
                List<Violation> found = new ArrayList<>();
                Accounting a = accounting.classify(job.name(), instant, found);
                if (found.isEmpty()) {
                    counts.merge(a, 1L, Long::sum);
                }
                found.forEach(out);
            });
        }
        return counts;
    }

    /** How {@code instant} of {@code job} is accounted for; anything wrong with it goes to {@code found}. */
    private Accounting classify(String job, long instant, List<Violation> found) {
        String key = key(job, instant);
        String what = job + " " + Instant.ofEpochMilli(instant);
        List<LogEvent> first = of(starts, key).stream().filter(e -> !e.rerun()).toList();
        List<LogEvent> reruns = of(starts, key).stream().filter(LogEvent::rerun).toList();
        long firstRows = of(rows, key).stream().filter(r -> !r.rerun()).count();
        long rerunRows = of(rows, key).stream().filter(ProbeRow::rerun).count();
        if (first.size() > 1 || firstRows > 1) {
            found.add(new Violation(Violation.DUPLICATE, what + " ran as a first round "
                    + Math.max(first.size(), firstRows) + " times"));
        }
        if (reruns.size() > 1 || rerunRows > 1) {
            found.add(new Violation(Violation.DUPLICATE, what + " ran as a rerun " + Math.max(reruns.size(), rerunRows) + " times"));
        }
        boolean ran = !first.isEmpty() || firstRows > 0;
        if (ran && inRange(skippedRanges, job, instant)) {
            found.add(new Violation("accounting", what + " both ran and was logged skipped"));
        }
        if ((ran || !reruns.isEmpty() || rerunRows > 0) && inRange(missedRanges, job, instant)) {
            found.add(new Violation("accounting", what + " both ran and was logged missed"));
        }
        if (!reruns.isEmpty() || rerunRows > 0) {
            if (first.stream().anyMatch(s -> endedOnRecord(key, s))) {
                found.add(new Violation(Violation.DUPLICATE, what + " ran again after its first round ran to its end"));
            }
            return Accounting.RERUN;
        }
        if (ran && first.stream().anyMatch(s -> ranToItsEnd(key, s))) {
            return caughtUp.contains(key) ? Accounting.CAUGHT_UP : Accounting.RAN;
        }
        if (!ran && (inRange(skippedRanges, job, instant) || inRange(skippedUnlogged, job, instant))) {
            return Accounting.SKIPPED;
        }
        if (superseded.contains(key)) {
            return Accounting.SUPERSEDED;
        }
        if (ran && lastOnRecord.getOrDefault(job, Set.of()).contains(instant)
                && first.stream().noneMatch(st -> logsItsEnd(key, st))) {
            // Its end is on record though its log says nothing: the process died between the finish
            // statement and the log line, and the next claim read the instant as ended.
            return Accounting.RAN;
        }
        if (!ran && (inRange(unclaimedRanges, job, instant) || inRange(missedRanges, job, instant))) {
            return Accounting.UNCLAIMED;
        }
        found.add(new Violation("accounting", ran
                ? what + " was cut short and neither ran again nor was logged superseded"
                : what + " is silently missing: no round, no log entry"));
        return null;
    }

    /** A round logged its end, whatever the outcome. */
    private boolean logsItsEnd(String key, LogEvent start) {
        return of(ends, key).stream().anyMatch(end -> end.term() == start.term());
    }

    /** A round ran to its end: ok, failed or timed out, whether or not its end reached the record. */
    private boolean ranToItsEnd(String key, LogEvent start) {
        return of(ends, key).stream().anyMatch(end -> end.term() == start.term()
                && !end.field("outcome").orElse("").equals("cut_short"));
    }

    /** A round ran to its end and its end is on record for certain: a rerun of it would be a second run. */
    private boolean endedOnRecord(String key, LogEvent start) {
        return ranToItsEnd(key, start) && !endUncertain.contains(start.job() + "#" + start.term());
    }

    private static boolean inRange(Map<String, List<long[]>> ranges, String job, long instant) {
        return ranges.getOrDefault(job, List.of()).stream().anyMatch(r -> r[0] <= instant && instant <= r[1]);
    }

    /** An entry naming the instants from {@code first} to {@code last}, both included. */
    private static void addRange(Map<String, List<long[]>> ranges, LogEvent e) {
        e.field("first").filter(f -> !f.equals("null")).ifPresent(first -> ranges.computeIfAbsent(e.job(),
                k -> new ArrayList<>()).add(new long[] {Instant.parse(first).toEpochMilli(), instantOf(e, "last")}));
    }

    private static <T> List<T> of(Map<String, List<T>> index, String key) {
        return index.getOrDefault(key, List.of());
    }

    private static long instantOf(LogEvent e, String field) {
        return e.field(field).map(s -> Instant.parse(s).toEpochMilli()).orElse(-1L);
    }

    private static String key(String job, long instantMs) {
        return job + "@" + instantMs;
    }
}
