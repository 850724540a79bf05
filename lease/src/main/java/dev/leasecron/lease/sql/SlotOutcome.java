package dev.leasecron.lease.sql;

/**
 * What the claim of an instant in one statement did to a name's row: claimed, refused, or skipped,
 * with the row as it stood before. On a claim that row was read under the claim's own lock, so its
 * unfinished instant is exactly the one the claim gave up.
 *
 * @param read the row before the claim, with the database clock of the statement
 * @param claimed the row was written under the token given for the name
 * @param skipped neither claimed nor refused: the row was free when read, but another transaction
 *     held it and a claim that skips locked rows passed over it; never with {@code claimed}
 */
public record SlotOutcome(SlotRow read, boolean claimed, boolean skipped) {}
