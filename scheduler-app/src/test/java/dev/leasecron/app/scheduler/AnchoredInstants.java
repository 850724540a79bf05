package dev.leasecron.app.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Schedules a test lays out from the moment it runs, so it waits for no round clock: every
 * {@code period} from {@code first} on, or a fixed list of instants that then ends. Counts the calls
 * of {@link #next}, so a test can tell that a loop stopped asking.
 */
final class AnchoredInstants implements Instants {
    private final List<Instant> listed;
    private final Instant first;
    private final Duration period;
    private final AtomicInteger nextCalls = new AtomicInteger();

    private AnchoredInstants(List<Instant> listed, Instant first, Duration period) {
        this.listed = listed;
        this.first = first;
        this.period = period;
    }

    /** Every {@code period} from {@code first} on, none before it. */
    static AnchoredInstants every(Duration period, Instant first) {
        return new AnchoredInstants(null, first, period);
    }

    /** Exactly {@code instants} (ascending), and none after the last: the schedule then ends. */
    static AnchoredInstants only(Instant... instants) {
        return new AnchoredInstants(List.of(instants), null, null);
    }

    /** How often {@link #next} was asked. */
    int nextCalls() {
        return nextCalls.get();
    }

    @Override
    public Optional<Instant> next(Instant after) {
        nextCalls.incrementAndGet();
        if (listed != null) {
            return listed.stream().filter(t -> t.isAfter(after)).findFirst();
        }
        if (after.isBefore(first)) {
            return Optional.of(first);
        }
        long periods = Duration.between(first, after).toMillis() / period.toMillis() + 1;
        return Optional.of(first.plus(period.multipliedBy(periods)));
    }

    @Override
    public Optional<Instant> latestAtOrBefore(Instant at) {
        if (listed != null) {
            return listed.stream().filter(t -> !t.isAfter(at)).reduce((a, b) -> b);
        }
        if (at.isBefore(first)) {
            return Optional.empty();
        }
        long periods = Duration.between(first, at).toMillis() / period.toMillis();
        return Optional.of(first.plus(period.multipliedBy(periods)));
    }
}
