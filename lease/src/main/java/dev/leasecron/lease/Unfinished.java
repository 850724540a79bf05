package dev.leasecron.lease;

import java.time.Instant;
import java.util.Objects;

/**
 * An instant claimed under a scheduler's name whose round has not run to its end: the process
 * running it shut down or died, or its lease was lost, before the round returned.
 */
public final class Unfinished {
    private final String name;
    private final Instant slot;
    private final boolean rerun;
    private final long term;

    Unfinished(String name, Instant slot, boolean rerun, long term) {
        this.name = Objects.requireNonNull(name);
        this.slot = Objects.requireNonNull(slot);
        this.rerun = rerun;
        this.term = term;
    }

    /** The name the instant was claimed under. */
    public String name() {
        return name;
    }

    /** The instant. */
    public Instant slot() {
        return slot;
    }

    /**
     * Whether the instant had been claimed a second time already and that round was cut short too.
     * {@link InstantSlots#unfinishedSlots} never returns such an instant; {@link Handle#superseded()} can.
     */
    public boolean rerun() {
        return rerun;
    }

    /** The term found: claiming again holds the row to it. */
    long term() {
        return term;
    }

    @Override
    public String toString() {
        return "Unfinished[" + name + " @ " + slot + (rerun ? ", rerun" : "") + "]";
    }
}
