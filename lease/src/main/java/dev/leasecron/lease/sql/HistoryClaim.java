package dev.leasecron.lease.sql;

/**
 * The history row of a round just claimed, written {@code running}.
 *
 * @param trigger the label of the round's {@code HistoryTrigger}
 * @param startedMs when the round was claimed, by the database clock as the claim observed it; 0 when
 *     not known, the write's own now standing in for it
 */
public record HistoryClaim(String name, long instantMs, long term, String holder, String instance, String trigger,
        boolean rerun, long startedMs) {}
