package dev.leasecron.lease.sql;

/**
 * How a round's history row is completed: the round of {@code name}'s instant under {@code term}
 * ended with {@code outcome} (a {@code HistoryOutcome} label), {@code detail} its error or reason, or
 * empty. The end and the duration are the database clock's at the write.
 */
public record HistoryCompletion(String name, long instantMs, long term, String outcome, String detail) {}
