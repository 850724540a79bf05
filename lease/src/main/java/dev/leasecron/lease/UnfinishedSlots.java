package dev.leasecron.lease;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one look for cut-short instants found ({@link InstantSlots#unfinishedSlots(java.util.Collection, Duration)}).
 *
 * @param free the instants free to claim a second time, as {@link InstantSlots#unfinishedSlots(java.util.Collection)}
 *     returns them
 * @param nextExpiry how long after the look, by the database clock, the first lease still holding
 *     an unfinished instant expires, when one does within the look-ahead asked for; a holder that
 *     renews in time pushes it back, so at that moment the instant is free to claim only if the
 *     holder has stopped
 */
public record UnfinishedSlots(List<Unfinished> free, Optional<Duration> nextExpiry) {
    public UnfinishedSlots {
        free = List.copyOf(free);
        Objects.requireNonNull(nextExpiry, "nextExpiry");
    }
}
