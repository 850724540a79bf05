package dev.leasecron.lease.sql;

/**
 * One row of a batch claim of an instant: the name, the token minted for this claim, and the row as
 * it was read, whose term and slot columns guard the write.
 *
 * @param name the lease name
 * @param holder the token minted for this claim
 * @param read the row as the read of the batch saw it
 */
public record SlotClaim(String name, String holder, SlotRow read) {}
