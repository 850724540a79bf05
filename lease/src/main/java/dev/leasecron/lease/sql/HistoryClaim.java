package dev.leasecron.lease.sql;

/**
 * The history row of a round just claimed, written {@code running}; its start and fire delay are the
 * database clock's at the write.
 *
 * @param trigger the label of the round's {@code HistoryTrigger}
 */
public record HistoryClaim(String name, long instantMs, long term, String holder, String instance, String trigger,
        boolean rerun) {}
