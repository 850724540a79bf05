package dev.leasecron.faults.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks a finished run against the scheduler's promises, from what it left behind: the probe table
 * and the replicas' JSON logs (and their exit statuses).
 *
 * <ol>
 *   <li>No two rounds of one job hold the lease at once ({@link TermOrderCheck}).
 *   <li>Every instant in the window is accounted for exactly one way ({@link InstantAccounting}).
 *   <li>Every replica that lost a lease stopped its round within the step-down grace, or failed as
 *       the spec says ({@link StepDownCheck}).
 * </ol>
 */
public final class InvariantChecker {
    private final List<JobSchedule> jobs;
    private final Duration stepDownBound;

    /**
     * @param jobs the run's jobs
     * @param stepDownBound how long after a loss a round may log its end (see {@link StepDownCheck})
     */
    public InvariantChecker(List<JobSchedule> jobs, Duration stepDownBound) {
        this.jobs = List.copyOf(jobs);
        this.stepDownBound = stepDownBound;
    }

    /**
     * @param fromMs the window's first moment by the database clock: instants before it are not accounted
     * @param toMs its last: instants after it may still be in flight when the run stops
     * @param exits the exit status of every replica process that has ended, by process name
     */
    public Verdict check(long fromMs, long toMs, List<ProbeRow> rows, List<LogEvent> events, Map<String, Integer> exits) {
        List<Violation> violations = new ArrayList<>();
        TermOrderCheck.check(rows, violations::add);
        var accounted = InstantAccounting.check(jobs, fromMs, toMs, rows, events, violations::add);
        StepDownCheck.check(events, exits, stepDownBound, violations::add);
        long rounds = events.stream().filter(e -> e.event().equals("round.start")).count();
        return new Verdict(rounds, accounted, violations);
    }
}
