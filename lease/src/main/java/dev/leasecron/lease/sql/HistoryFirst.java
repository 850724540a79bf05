package dev.leasecron.lease.sql;

import dev.leasecron.lease.LeaseDatabaseException;
import java.util.List;
import java.util.function.Consumer;

/**
 * The completion of the history rows of rounds ending together, sent as a statement of its own just
 * before the lease statement that ends them: the lease statement keeps its single autocommit statement
 * (its timeout and synchronous-commit check on PostgreSQL), and a history statement that fails is
 * reported, never costing a round its end.
 */
final class HistoryFirst {
    private HistoryFirst() {}

    /**
     * Written before the lease statement, not after: a replica that dies between the two leaves an
     * instant unfinished, whose rerun adds its own row beside this accurate one, rather than a
     * finished instant whose row would stay {@code running} for good.
     */
    static void complete(HistoryStore history, List<HistoryCompletion> ended,
            Consumer<LeaseDatabaseException> historyFailed) {
        if (ended.isEmpty()) {
            return;
        }
        try {
            history.complete(ended);
        } catch (LeaseDatabaseException e) {
            historyFailed.accept(e);
        }
    }
}
