package dev.leasecron.lease.sql;

/**
 * A name's row as the claim of an instant reads it, with the database clock at the read.
 *
 * @param term the term, which every change of hands moves
 * @param slotMs the last instant on record, 0 if none
 * @param unfinishedSlotMs the instant whose round has not run to its end, 0 if none
 * @param rerunSlotMs the last instant claimed a second time, 0 if none
 * @param expiresAtMs when the lease expires, 0 once released
 * @param nowMs the database clock when the row was read
 */
public record SlotRow(long term, long slotMs, long unfinishedSlotMs, long rerunSlotMs, long expiresAtMs, long nowMs) {

    /** The lease has expired or was released: the name is free to claim. */
    public boolean expired() {
        return expiresAtMs <= nowMs;
    }

    /** The last instant claimed has not run to its end; only that one can be unfinished. */
    public boolean lastUnfinished() {
        return unfinishedSlotMs != 0 && unfinishedSlotMs == slotMs;
    }

    /** The last instant claimed was claimed a second time already. */
    public boolean lastRerun() {
        return rerunSlotMs != 0 && rerunSlotMs == slotMs;
    }
}
