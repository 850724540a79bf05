package dev.leasecron.app.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** A schedule firing every {@code period} from the epoch, for tests that cannot wait for cron. */
record EveryPeriod(Duration period) implements Instants {

    @Override
    public Optional<Instant> next(Instant after) {
        long p = period.toMillis();
        return Optional.of(Instant.ofEpochMilli(Math.floorDiv(after.toEpochMilli(), p) * p + p));
    }

    @Override
    public Optional<Instant> latestAtOrBefore(Instant at) {
        long p = period.toMillis();
        return Optional.of(Instant.ofEpochMilli(Math.floorDiv(at.toEpochMilli(), p) * p));
    }
}
