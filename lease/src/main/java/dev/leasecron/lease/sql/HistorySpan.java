package dev.leasecron.lease.sql;

/**
 * A span of consecutive instants of {@code name} that did not run, as one history row.
 *
 * @param outcome a {@code HistoryOutcome} label of an outcome that did not run
 * @param instance the replica that recorded it
 * @param detail why
 */
public record HistorySpan(String name, long firstMs, long lastMs, long count, String outcome, String instance,
        String detail) {}
