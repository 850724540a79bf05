package dev.leasecron.lease.sql;

/**
 * One row of a batch finish: a handle's name and token, the instant it was claimed for, and the last
 * instant of its schedule that came while its round ran.
 *
 * @param name the lease name
 * @param holder the token of the claim whose round ended
 * @param slotMs the instant the round was claimed for
 * @param passedMs the last instant that came while the round ran, at least {@code slotMs}
 */
public record Finishing(String name, String holder, long slotMs, long passedMs) {}
