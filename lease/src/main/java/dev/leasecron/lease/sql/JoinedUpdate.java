package dev.leasecron.lease.sql;

import java.util.List;
import java.util.function.Consumer;

/**
 * The shape every batch write of the lease table takes: an {@code UPDATE gst_leases} joined to the
 * derived table of the batch's rows, written in each dialect's syntax, and on PostgreSQL locking its
 * rows in the order the claims lock them.
 */
final class JoinedUpdate {
    private JoinedUpdate() {}

    /**
     * An {@code UPDATE gst_leases} joined to the derived table {@code b} of {@code rows} (its first
     * column {@code b_name}), in the dialect's syntax: {@code WITH b AS (...) UPDATE ... SET ... FROM b
     * WHERE ...} on PostgreSQL, {@code UPDATE ... SET ... FROM b WHERE ...} on SQLite,
     * {@code UPDATE ... CROSS JOIN b SET ... WHERE ...} on MySQL and MariaDB. {@code set} and
     * {@code where} append their parts, values included, where the dialect places them.
     *
     * <p>On PostgreSQL {@code b} first locks the rows of its names in name order, as the claim does:
     * a claim still running locks, in name order, rows it then finds taken, and an update locking them
     * in the join's order met it in a deadlock (a batch of finishes, with three replicas: the rounds
     * ended, and their instants ran again once their leases expired).
     */
    static BatchStatement of(Dialect dialect, List<String> columns, List<List<?>> rows,
            Consumer<BatchStatement> set, Consumer<BatchStatement> where) {
        BatchStatement s = new BatchStatement();
        switch (dialect) {
            case POSTGRES -> {
                s.sql("WITH b AS MATERIALIZED (SELECT b.* FROM gst_leases l JOIN ").rows(dialect, columns, rows)
                        .sql(" ON l.name = b.b_name ORDER BY l.name FOR UPDATE OF l) UPDATE gst_leases SET ");
                set.accept(s);
                s.sql(" FROM b");
            }
            case MYSQL, MARIADB -> {
                s.sql("UPDATE gst_leases CROSS JOIN ").rows(dialect, columns, rows).sql(" SET ");
                set.accept(s);
            }
            case SQLITE -> {
                s.sql("UPDATE gst_leases SET ");
                set.accept(s);
                s.sql(" FROM ").rows(dialect, columns, rows);
            }
        }
        s.sql(" WHERE ");
        where.accept(s);
        return s;
    }
}
