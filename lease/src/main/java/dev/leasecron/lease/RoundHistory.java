package dev.leasecron.lease;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The round history on the primary database, for operators, changing nothing: every round claimed
 * through {@link InstantSlots} (its row is written with its claim and completed with its finish or
 * release, in the same statements' transactions), and every span of instants that did not run. Reached
 * through {@link Leases#history()}.
 */
public final class RoundHistory {
    private final Leases leases;

    RoundHistory(Leases leases) {
        this.leases = leases;
    }

    /**
     * The rows {@code query} asks for, newest instant first (a round before the span of the same instant).
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public List<HistoryEntry> entries(HistoryQuery query) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * For each of {@code names} with history, its newest row that is a round which ended (not running):
     * the "last outcome" operators ask for. One statement.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public Map<String, HistoryEntry> lastEnded(Collection<String> names) {
        throw new UnsupportedOperationException("not yet");
    }
}
