package dev.leasecron.lease;

import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * Which history rows to read: of some names (all when empty), with some outcomes (all when empty),
 * whose instant is at or after {@code since}, newest instant first, at most {@code limit}.
 */
public record HistoryQuery(Set<String> names, Set<HistoryOutcome> outcomes, Optional<Instant> since, int limit) {
    public HistoryQuery {
        names = Set.copyOf(names);
        outcomes = Set.copyOf(outcomes);
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
    }

    /** The newest {@code limit} rows of {@code names}, whatever their outcome. */
    public static HistoryQuery latest(Collection<String> names, int limit) {
        return new HistoryQuery(Set.copyOf(names), Set.of(), Optional.empty(), limit);
    }
}
