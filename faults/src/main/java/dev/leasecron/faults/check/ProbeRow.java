package dev.leasecron.faults.check;

/**
 * One committed probe transaction: a round that wrote under its lease.
 *
 * @param job the job's name
 * @param instantMs the instant the round ran for
 * @param term the lease term the round ran under
 * @param holder the holder token on the lease row when the transaction began
 * @param rerun whether the round ran the instant a second time
 * @param startMs the database clock at the transaction's first probe statement
 * @param endMs the database clock at its last, after the high-water lock was taken
 * @param seenTerm the highest term committed for the job before this transaction took the lock
 */
public record ProbeRow(String job, long instantMs, long term, String holder, boolean rerun, long startMs, long endMs,
        long seenTerm) {}
