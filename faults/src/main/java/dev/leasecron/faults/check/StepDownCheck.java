package dev.leasecron.faults.check;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Every replica that lost a lease stopped the round under it within the step-down grace, or failed
 * the way the spec says: a {@code lease.would_not_stop} entry and exit status 70. Times are compared
 * only within one process, so a skewed process clock does not matter.
 */
final class StepDownCheck {
    /** The exit status of a replica whose work under a lost lease would not stop. */
    static final int FAIL_NOW_STATUS = 70;
    /** What the harness's kill -9 leaves as the exit status. */
    static final int KILLED_STATUS = 128 + 9;

    private StepDownCheck() {}

    /**
     * @param bound how long after the loss the round's work may end (its {@code round.end} entry less the
     *     time its release took): the step-down grace, plus what a statement of the work may still wait
     *     for (a stall, a statement timeout) and scheduling slack
     * @param exits each process's exit status; a process still absent never exited
     */
    static void check(List<LogEvent> events, Map<String, Integer> exits, Duration bound, Consumer<Violation> out) {
        for (LogEvent lost : events) {
            if (lost.event().equals("lease.would_not_stop")) {
                Integer status = exits.get(lost.process());
                if (status == null || (status != FAIL_NOW_STATUS && status != KILLED_STATUS)) {
                    out.accept(new Violation("step-down", lost.process() + ": work under a lost lease would not stop,"
                            + " and the process exited with " + status + ", not " + FAIL_NOW_STATUS));
                }
            }
            if (!lost.event().equals("lease.lost")) {
                continue;
            }
            String job = lost.field("lease").map(l -> l.replaceFirst("^cron:", "")).orElse(lost.job());
            Optional<LogEvent> end = events.stream()
                    .filter(e -> e.process().equals(lost.process()) && e.event().equals("round.end")
                            && e.job().equals(job) && e.term() == lost.term())
                    .findFirst();
            if (end.isPresent()) {
                // The work's own end: the entry comes after the release, which a database that does not
                // answer may hold up for its connection and statement timeouts.
                long releasing = end.get().field("work_ms").map(w -> end.get().field("duration_ms").map(Long::parseLong)
                        .orElse(0L) - Long.parseLong(w)).orElse(0L);
                long took = end.get().atMs() - releasing - lost.atMs();
                if (took > bound.toMillis()) {
                    out.accept(new Violation("step-down", lost.process() + ": " + job + " term " + lost.term()
                            + " stopped its work " + took + " ms after its lease was lost, past " + bound.toMillis() + " ms"));
                }
                continue;
            }
            Integer status = exits.get(lost.process());
            boolean failedAsSpecified = status != null && (status == FAIL_NOW_STATUS || status == KILLED_STATUS);
            if (!failedAsSpecified) {
                out.accept(new Violation("step-down", lost.process() + ": " + job + " term " + lost.term()
                        + " lost its lease and its round never ended (exit status " + status + ")"));
            }
        }
    }
}
