package dev.leasecron.lease.sql;

/**
 * What the claim of a job's lease for a run request read back in its own transaction.
 *
 * @param term the term the claim moved the lease to
 * @param slotMs the last instant on record under the name (0: none)
 * @param nowMs the database clock at the claim
 */
public record ManualClaim(long term, long slotMs, long nowMs) {}
