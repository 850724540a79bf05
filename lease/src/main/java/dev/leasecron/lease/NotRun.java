package dev.leasecron.lease;

import java.time.Instant;
import java.util.Objects;

/**
 * A span of consecutive instants of one name that did not run, for {@link RoundHistory#recordNotRun}.
 *
 * @param name the lease name
 * @param first the first instant of the span
 * @param last the last instant of the span (the first again for one instant)
 * @param count how many instants the span holds
 * @param outcome why, one of the outcomes that did not run ({@link HistoryOutcome#ran()} false)
 * @param reason the reason in words; cut to a few KiB when written
 */
public record NotRun(String name, Instant first, Instant last, long count, HistoryOutcome outcome, String reason) {
    public NotRun {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(last, "last");
        if (outcome.ran()) {
            throw new IllegalArgumentException("a span not run is skipped, missed, superseded or suspended, not "
                    + outcome.label());
        }
        if (count < 1 || last.isBefore(first)) {
            throw new IllegalArgumentException("a span holds at least one instant, first to last: " + first + ".." + last);
        }
        reason = reason == null ? "" : reason;
    }
}
