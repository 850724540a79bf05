package dev.leasecron.app.web;

import dev.leasecron.lease.HistoryOutcome;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The job page's filter, from its query string: {@code outcome} (one of the history's outcomes, or
 * empty for all) and {@code limit} (how many rows). A value it does not know is treated as absent,
 * never as an error: the form offers only the known ones.
 */
public record RoundFilter(Optional<HistoryOutcome> outcome, int limit) {
    public static final List<String> OUTCOMES = Arrays.stream(HistoryOutcome.values()).map(HistoryOutcome::label)
            .toList();
    public static final List<Integer> LIMITS = List.of(20, 50, 100, 500);
    public static final int DEFAULT_LIMIT = 50;

    /** The filter {@code outcome} and {@code limit} say, each null when not in the request. */
    public static RoundFilter of(String outcome, String limit) {
        Optional<HistoryOutcome> chosen = Optional.ofNullable(outcome).filter(OUTCOMES::contains)
                .map(HistoryOutcome::ofLabel);
        int rows = DEFAULT_LIMIT;
        if (limit != null) {
            try {
                rows = Math.clamp(Integer.parseInt(limit.strip()), 1, LIMITS.getLast());
            } catch (NumberFormatException e) {
                rows = DEFAULT_LIMIT;
            }
        }
        return new RoundFilter(chosen, rows);
    }

    public String outcomeLabel() {
        return outcome.map(HistoryOutcome::label).orElse("");
    }

    public boolean isOutcome(String label) {
        return outcomeLabel().equals(label);
    }
}
