package dev.leasecron.lease.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * What one seed of the simulation found.
 *
 * @param violations each broken promise, with the virtual time it was seen at
 * @param rounds rounds started, first and reruns
 * @param reruns instants run a second time
 * @param superseded instants given up for a later one
 */
record SimOutcome(long seed, List<String> violations, int rounds, int reruns, int superseded) {
    SimOutcome {
        violations = List.copyOf(new ArrayList<>(violations));
    }
}
