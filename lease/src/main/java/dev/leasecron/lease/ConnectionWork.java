package dev.leasecron.lease;

import java.sql.Connection;

/**
 * The statements of one guarded transaction ({@link GuardedTransactions#inTransaction}).
 *
 * @param <T> what the work returns
 */
@FunctionalInterface
public interface ConnectionWork<T> {
    /**
     * Runs the transaction's statements on {@code connection}. Auto-commit is off; the caller commits
     * when this returns and rolls back when it throws. The connection must not be used after return,
     * nor committed, rolled back or closed by the work.
     */
    T run(Connection connection) throws Exception;
}
