package dev.leasecron.app.scheduler;

import java.time.Instant;
import java.util.Optional;

/**
 * Consecutive instants of a job's schedule as a log entry reports them: the first, the last and how
 * many. The count stops at {@link #COUNT_LIMIT}, so that a per-second job left off for a month does
 * not cost its scheduler minutes of counting.
 *
 * @param first the first instant of the span
 * @param last the last instant of the span
 * @param count how many instants it holds, at most {@link #COUNT_LIMIT}
 * @param countCapped whether counting stopped at the limit: the span holds at least {@code count}
 */
record InstantSpan(Instant first, Instant last, long count, boolean countCapped) {
    static final long COUNT_LIMIT = 100_000;

    /** The instants of {@code instants} after {@code after} and not after {@code last}; empty when none. */
    static Optional<InstantSpan> of(Instants instants, Instant after, Instant last) {
        Optional<Instant> first = instants.next(after).filter(t -> !t.isAfter(last));
        if (first.isEmpty()) {
            return Optional.empty();
        }
        long count = 0;
        Optional<Instant> t = first;
        while (t.isPresent() && !t.get().isAfter(last) && count < COUNT_LIMIT) {
            count++;
            t = instants.next(t.get());
        }
        boolean capped = t.isPresent() && !t.get().isAfter(last);
        return Optional.of(new InstantSpan(first.get(), instants.latestAtOrBefore(last).orElseThrow(), count, capped));
    }

    /** The count as a reader should take it: exact, or a lower bound. */
    String countText() {
        return countCapped ? "at least " + count : Long.toString(count);
    }
}
