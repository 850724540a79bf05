package dev.leasecron.lease.sql;

/**
 * How a round's history row is completed: the round {@code round} ended with {@code outcome} (a
 * {@code HistoryOutcome} label), {@code detail} its error or reason, or empty. The end and the
 * duration are the database clock's at the write. The completion carries the whole row, so it can
 * write it when the claim's own write has not landed yet (or failed): the two may arrive in either
 * order.
 */
public record HistoryCompletion(HistoryClaim round, String outcome, String detail) {}
