package dev.leasecron.lease.sql;

/**
 * What the claim of an instant in one statement did to a name's row: claimed or refused, with the
 * row as it stood before. On a claim that row was read under the claim's own lock, so its unfinished
 * instant is exactly the one the claim gave up.
 *
 * @param read the row before the claim, with the database clock of the statement
 * @param claimed the row was written under the token given for the name
 */
public record SlotOutcome(SlotRow read, boolean claimed) {}
