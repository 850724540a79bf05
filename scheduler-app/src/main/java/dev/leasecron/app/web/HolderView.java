package dev.leasecron.app.web;

import dev.leasecron.lease.LeaseRow;
import dev.leasecron.lease.RunRequest;
import java.time.Instant;
import java.util.Optional;

/**
 * A job's lease row: who holds it now, by the database clock, and the round it runs.
 *
 * @param row the lease row
 * @param manual the run request whose manual round holds the lease now; empty when none does
 */
public record HolderView(LeaseRow row, Optional<RunRequest> manual) {

    /** Held right now by the database clock (not expired). */
    public boolean held() {
        return row.held();
    }

    public String instance() {
        return row.instance();
    }

    public long term() {
        return row.term();
    }

    /** A round of the holder's runs now: a manual one, or an instant claimed and not finished while the lease holds. */
    public boolean running() {
        return manual.isPresent() || instantRunning();
    }

    /** The instant of the round running now; empty when none, or when the round running is a manual one. */
    public Optional<Instant> runningInstant() {
        return instantRunning() ? Optional.of(Instant.ofEpochMilli(row.unfinishedSlotMs())) : Optional.empty();
    }

    /** What runs now, for the pages: the instant, or {@code run now · asked by alice}; empty when nothing runs. */
    public String runningLabel() {
        return manual.map(r -> "run now · asked by " + r.requestedBy())
                .or(() -> runningInstant().map(Texts::utc)).orElse("");
    }

    private boolean instantRunning() {
        return manual.isEmpty() && row.held() && row.unfinishedSlotMs() != 0;
    }

    /** The last instant claimed under the lease; empty when none. */
    public String lastInstant() {
        return row.slotMs() == 0 ? "" : Texts.utc(Instant.ofEpochMilli(row.slotMs()));
    }

    /** When the lease expires, from the database clock's now: {@code in 12 s}, {@code 3 min ago}. */
    public String expires() {
        return Texts.relative(Instant.ofEpochMilli(row.expiresAtMs()), Instant.ofEpochMilli(row.nowMs()));
    }

    public Instant expiresAt() {
        return Instant.ofEpochMilli(row.expiresAtMs());
    }
}
