package dev.leasecron.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Binds the {@code history:} section, filling in defaults. */
final class HistoryBinder {
    private static final List<String> KEYS = List.of("enabled", "retain", "maxRowsPerJob");

    private HistoryBinder() {}

    /** The section's settings, or empty when anything in it is wrong (every error recorded). */
    static Optional<HistorySpec> bind(FieldReader top) {
        if (top.node("history").isEmpty()) {
            return Optional.of(HistorySpec.DEFAULTS);
        }
        Optional<FieldReader> section = top.mapping("history", KEYS);
        if (section.isEmpty()) {
            return Optional.empty();
        }
        FieldReader h = section.get();
        Optional<Boolean> enabled = h.node("enabled").isPresent() ? h.bool("enabled") : Optional.of(true);
        Optional<Duration> retain = h.node("retain").isPresent()
                ? h.parsed("retain", HistoryBinder::retain)
                : Optional.of(HistorySpec.DEFAULT_RETAIN);
        Optional<Integer> maxRows = h.node("maxRowsPerJob").isPresent()
                ? h.integer("maxRowsPerJob", HistorySpec.MIN_ROWS_PER_JOB, HistorySpec.MAX_ROWS_PER_JOB)
                : Optional.of(HistorySpec.DEFAULT_MAX_ROWS_PER_JOB);
        if (enabled.isEmpty() || retain.isEmpty() || maxRows.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new HistorySpec(enabled.get(), retain.get(), maxRows.get()));
    }

    private static Duration retain(String text) {
        Duration d = DurationSyntax.parse(text);
        if (d.compareTo(HistorySpec.MIN_RETAIN) < 0) {
            throw new IllegalArgumentException("must be at least 1h (rows of rounds still running would be purged),"
                    + " was \"" + text + "\"");
        }
        return d;
    }
}
