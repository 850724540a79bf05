package dev.leasecron.bench;

import dev.leasecron.app.scheduler.Instants;
import java.time.Instant;
import java.util.Optional;

/** Every {@code seconds} seconds from the epoch: the same instants as the cron {@code 0/S * * * * *} when S divides 60. */
record EverySeconds(int seconds) implements Instants {

    @Override
    public Optional<Instant> next(Instant after) {
        long p = seconds * 1000L;
        return Optional.of(Instant.ofEpochMilli(Math.floorDiv(after.toEpochMilli(), p) * p + p));
    }

    @Override
    public Optional<Instant> latestAtOrBefore(Instant at) {
        long p = seconds * 1000L;
        return Optional.of(Instant.ofEpochMilli(Math.floorDiv(at.toEpochMilli(), p) * p));
    }
}
