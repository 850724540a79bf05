package dev.leasecron.lease.sql;

import org.jooq.exception.DataAccessException;

/** The tables beside {@code gst_leases} (the history, suspensions, run requests): made when missing, and looked for. */
final class SideTables {
    private SideTables() {}

    /**
     * Runs {@code statements}, which create {@code table} when missing. Their failure is no failure when
     * the table exists after all: replicas creating it at the same moment, where PostgreSQL's
     * {@code IF NOT EXISTS} is not atomic.
     */
    static void create(Sql sql, String table, String keyColumn, Runnable statements) {
        try {
            statements.run();
        } catch (DataAccessException e) {
            if (!exists(sql, table, keyColumn)) {
                throw e;
            }
        }
    }

    /** Whether {@code table} exists: a read of it that finds nothing succeeds, one of a missing table fails. */
    static boolean exists(Sql sql, String table, String keyColumn) {
        try {
            new BatchStatement().sql("SELECT COUNT(*) FROM " + table + " WHERE " + keyColumn + " = ").value("")
                    .fetch(sql, r -> r.getLong(1));
            return true;
        } catch (DataAccessException e) {
            return false;
        }
    }
}
