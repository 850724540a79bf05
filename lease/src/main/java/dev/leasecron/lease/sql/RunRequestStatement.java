package dev.leasecron.lease.sql;

import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.RunRequestState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jooq.exception.DataAccessException;

/**
 * The statements of {@code gst_run_requests}, one row per request id, and the claim and end of a job's
 * lease for a manual round, each in one transaction with the request's row so that exactly one replica
 * takes a request and its end is recorded with the lease given back.
 *
 * <p>A manual round claims the job's lease as the protocol's plain claim does (expired or released,
 * the term moved), and leaves {@code slot_ms}, {@code unfinished_slot_ms} and {@code rerun_slot_ms} as
 * they are: it is no instant. It does not claim a lease holding an instant cut short that waits for
 * its rerun ({@code unfinished_slot_ms = slot_ms}, not rerun yet): the rerun sweep's claim comes first.
 */
final class RunRequestStatement {
    static final String TABLE = "gst_run_requests";
    private static final String COLUMNS = "id, name, requested_by, requested_ms, state, instance, term, outcome";
    /** A lease a manual round may claim: free, and no instant cut short waiting for its rerun. */
    private static final String FREE = "%2$sexpires_at_ms <= %1$s AND NOT (%2$sunfinished_slot_ms <> 0"
            + " AND %2$sunfinished_slot_ms = %2$sslot_ms AND %2$srerun_slot_ms < %2$sslot_ms)";

    private RunRequestStatement() {}

    static void createIfMissing(Sql sql) {
        String columns = "id VARCHAR(191) NOT NULL, name VARCHAR(191) NOT NULL, requested_by VARCHAR(191) NOT NULL"
                + " DEFAULT '', requested_ms BIGINT NOT NULL, state VARCHAR(16) NOT NULL, instance VARCHAR(191) NOT NULL"
                + " DEFAULT '', term BIGINT NOT NULL DEFAULT 0, outcome VARCHAR(16) NOT NULL DEFAULT '', PRIMARY KEY (id)";
        SideTables.create(sql, TABLE, "id", () -> {
            if (mysql(sql)) {
                run(sql, "CREATE TABLE IF NOT EXISTS " + TABLE + " (" + columns + ", KEY gst_run_requests_state (state))"
                        + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
            } else {
                run(sql, "CREATE TABLE IF NOT EXISTS " + TABLE + " (" + columns + ")");
                // Replicas look for the requests not ended; the ended ones pile up beside them.
                run(sql, "CREATE INDEX IF NOT EXISTS gst_run_requests_state ON " + TABLE + " (state)");
            }
        });
    }

    static boolean exists(Sql sql) {
        return SideTables.exists(sql, TABLE, "id");
    }

    /** Records a pending request unless one has {@code id}: 1 row written, or 0. */
    static int insert(Sql sql, String id, String name, String by) {
        BatchStatement insert = new BatchStatement().sql((mysql(sql) ? "INSERT IGNORE INTO " : "INSERT INTO ") + TABLE
                        + " (id, name, requested_by, requested_ms, state) VALUES (").value(id).sql(", ").value(name)
                .sql(", ").value(by).sql(", " + sql.nowSql() + ", '" + label(RunRequestState.PENDING) + "')");
        return Sql.atMostOne((mysql(sql) ? insert : insert.sql(" ON CONFLICT DO NOTHING")).execute(sql), "run request");
    }

    static Optional<RunRequest> read(Sql sql, String id) {
        return new BatchStatement().sql("SELECT " + COLUMNS + " FROM " + TABLE + " WHERE id = ").value(id)
                .fetch(sql, r -> request(r, 0)).stream().findFirst();
    }

    /** The requests of {@code names} not ended, oldest first, each with what its job's lease says. */
    static List<OpenRequest> open(Sql sql, Collection<String> names) {
        String now = sql.nowSql();
        return new BatchStatement().sql("SELECT " + prefixed("r.") + ", CASE WHEN l.name IS NULL OR ("
                        + String.format(Locale.ROOT, FREE, now, "l.") + ") THEN 1 ELSE 0 END, CASE WHEN l.term = r.term AND"
                        + " l.expires_at_ms > " + now + " THEN 1 ELSE 0 END FROM " + TABLE + " r LEFT JOIN gst_leases l"
                        + " ON l.name = r.name WHERE r.state IN ('" + label(RunRequestState.PENDING) + "', '"
                        + label(RunRequestState.RUNNING) + "') AND r.name IN ").list(names)
                .sql(" ORDER BY r.requested_ms, r.id")
                .fetch(sql, r -> new OpenRequest(request(r, 0), r.getInt(9) == 1, r.getInt(10) == 1));
    }

    /**
     * Claims {@code name}'s lease for request {@code id}, marking it running under the new term, in one
     * transaction (after writing the name's row, free, when it has none: a row of term 0 and no
     * instant, as if claimed never): empty (nothing written) when the lease is held, waits for a rerun, or the request
     * is no longer pending (another replica took it).
     */
    static Optional<ManualClaim> claim(Sql sql, String id, String name, String holder, String instance) {
        // The row first, free, in a statement of its own: in the transaction, an update finding no row
        // and an insert would take InnoDB's gap locks, and two replicas racing would deadlock on them.
        BatchStatement free = new BatchStatement().sql((mysql(sql) ? "INSERT IGNORE INTO " : "INSERT INTO ")
                + "gst_leases (name) VALUES (").value(name).sql(")");
        (mysql(sql) ? free : free.sql(" ON CONFLICT DO NOTHING")).execute(sql);
        try {
            return Optional.of(sql.dsl().transactionResult(cfg -> {
                Sql tx = sql.on(cfg.dsl());
                String now = tx.nowSql();
                int taken = new BatchStatement().sql("UPDATE gst_leases SET holder = ").value(holder).sql(", instance = ")
                        .value(instance).sql(", term = term + 1, expires_at_ms = " + tx.expirySql() + " WHERE name = ")
                        .value(name).sql(" AND " + String.format(Locale.ROOT, FREE, now, "")).execute(tx);
                if (Sql.atMostOne(taken, "manual claim") == 0) {
                    throw new NotTaken();
                }
                ManualClaim read = new BatchStatement().sql("SELECT term, slot_ms, " + now + " FROM gst_leases WHERE name = ")
                        .value(name).sql(" AND holder = ").value(holder)
                        .fetch(tx, r -> new ManualClaim(r.getLong(1), r.getLong(2), r.getLong(3))).getFirst();
                int marked = new BatchStatement().sql("UPDATE " + TABLE + " SET state = '" + label(RunRequestState.RUNNING)
                                + "', outcome = '" + HistoryOutcome.RUNNING.label() + "', instance = ").value(instance)
                        .sql(", term = ").value(read.term()).sql(" WHERE id = ").value(id).sql(" AND state = '"
                                + label(RunRequestState.PENDING) + "'").execute(tx);
                if (Sql.atMostOne(marked, "mark a run request running") == 0) {
                    throw new NotTaken(); // rolls the lease's claim back with it
                }
                return read;
            }));
        } catch (NotTaken e) {
            return Optional.empty();
        } catch (DataAccessException e) {
            if (e.getCause() instanceof NotTaken) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Ends the manual round of request {@code id}, in one transaction: gives the lease back, taking
     * along the later of {@code passedMs} and {@code nextMs} the database clock has reached when it is
     * later than the instant on record (0: none to take), and marks the request ended with
     * {@code outcome} where it is still running under {@code term}.
     *
     * @param withLease false for a lease known lost: the request alone is marked
     * @return the instant on record after the release; empty when the lease was not this holder's
     */
    static Optional<Long> end(Sql sql, String id, String name, String holder, long term, boolean withLease,
            long passedMs, long nextMs, String outcome) {
        return sql.dsl().transactionResult(cfg -> {
            Sql tx = sql.on(cfg.dsl());
            Optional<Long> slot = Optional.empty();
            if (withLease) {
                String now = tx.nowSql();
                int released = new BatchStatement().sql("UPDATE gst_leases SET expires_at_ms = 0, slot_ms = CASE WHEN slot_ms < ")
                        .value(nextMs).sql(" AND ").value(nextMs).sql(" <= " + now + " THEN ").value(nextMs)
                        .sql(" WHEN slot_ms < ").value(passedMs).sql(" AND ").value(passedMs).sql(" <= " + now + " THEN ")
                        .value(passedMs).sql(" ELSE slot_ms END WHERE name = ").value(name).sql(" AND holder = ")
                        .value(holder).execute(tx);
                if (Sql.atMostOne(released, "manual release") == 1) {
                    slot = Optional.of(new BatchStatement().sql("SELECT slot_ms FROM gst_leases WHERE name = ").value(name)
                            .fetch(tx, r -> r.getLong(1)).getFirst());
                }
            }
            markEnded(tx, id, term, outcome);
            return slot;
        });
    }

    /** Marks request {@code id} ended with {@code outcome} if it still runs under {@code term}: 1 row, or 0. */
    static int markEnded(Sql sql, String id, long term, String outcome) {
        return Sql.atMostOne(new BatchStatement().sql("UPDATE " + TABLE + " SET state = '" + label(RunRequestState.ENDED)
                        + "', outcome = ").value(outcome).sql(" WHERE id = ").value(id).sql(" AND state = '"
                        + label(RunRequestState.RUNNING) + "' AND term = ").value(term).execute(sql),
                "mark a run request ended");
    }

    /**
     * Deletes at most {@code max} requests made longer than {@code retainMs} ago by the database clock,
     * but those running: ended ones, and pending ones no replica took (their job runs nowhere).
     */
    static int purgeOlderThan(Sql sql, long retainMs, int max) {
        return BoundedDelete.run(sql, TABLE, new BatchStatement().sql("requested_ms < " + sql.nowSql() + " - ").value(retainMs)
                .sql(" AND state <> '" + label(RunRequestState.RUNNING) + "'"), "requested_ms", max);
    }

    private static RunRequest request(ResultSet r, int offset) throws SQLException {
        String instance = r.getString(offset + 6);
        String outcome = r.getString(offset + 8);
        return new RunRequest(r.getString(offset + 1), r.getString(offset + 2), r.getString(offset + 3),
                Instant.ofEpochMilli(r.getLong(offset + 4)),
                RunRequestState.valueOf(r.getString(offset + 5).toUpperCase(Locale.ROOT)),
                instance == null || instance.isEmpty() ? Optional.empty() : Optional.of(instance), r.getLong(offset + 7),
                outcome == null || outcome.isEmpty() ? Optional.empty() : Optional.of(HistoryOutcome.ofLabel(outcome)));
    }

    private static String prefixed(String alias) {
        return alias + COLUMNS.replace(", ", ", " + alias);
    }

    static String label(RunRequestState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }

    private static boolean mysql(Sql sql) {
        return sql.dialect() == Dialect.MYSQL || sql.dialect() == Dialect.MARIADB;
    }

    private static void run(Sql sql, String text) {
        new BatchStatement().sql(text).execute(sql);
    }

    /** Rolls the claim's transaction back: the lease was not free, or the request was taken. */
    private static final class NotTaken extends RuntimeException {
        NotTaken() {
            super(null, null, false, false);
        }
    }
}
