package dev.leasecron.app.web;

import dev.leasecron.lease.LeaseRow;
import java.time.Instant;

/** A job's lease row: who holds it now, by the database clock, and the round it runs. */
public record HolderView(LeaseRow row) {

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

    /** A round of the holder's runs now: its instant is claimed and not finished, and the lease holds. */
    public boolean running() {
        return row.held() && row.unfinishedSlotMs() != 0;
    }

    /** The instant the running round is for; empty when none runs. */
    public String runningInstant() {
        return running() ? Texts.utc(Instant.ofEpochMilli(row.unfinishedSlotMs())) : "";
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
