package dev.leasecron.lease;

/**
 * A whole lease row with the database clock at the read, for operators (the {@code status}
 * command). Times are UTC ms, 0 = none.
 */
public record LeaseRow(
        String name,
        String holder,
        String instance,
        long term,
        long expiresAtMs,
        long slotMs,
        long unfinishedSlotMs,
        long rerunSlotMs,
        long nowMs) {

    /** Held by someone right now, by the database clock. */
    public boolean held() {
        return expiresAtMs > nowMs;
    }
}
