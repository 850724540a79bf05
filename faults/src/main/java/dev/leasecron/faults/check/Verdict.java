package dev.leasecron.faults.check;

import java.util.List;
import java.util.Map;

/**
 * What the checker found in one run.
 *
 * @param rounds rounds started, first rounds and reruns, by the logs
 * @param accounted how many instants of the window were accounted for each way
 * @param violations every broken promise; empty when the run kept them all
 */
public record Verdict(long rounds, Map<Accounting, Long> accounted, List<Violation> violations) {

    public Verdict {
        accounted = Map.copyOf(accounted);
        violations = List.copyOf(violations);
    }

    public long count(Accounting accounting) {
        return accounted.getOrDefault(accounting, 0L);
    }

    public boolean ok() {
        return violations.isEmpty();
    }
}
