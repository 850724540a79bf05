package dev.leasecron.faults.probe;

import dev.leasecron.jobs.Job;
import dev.leasecron.jobs.JobContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The job type {@code probe}: each round records itself in one transaction guarded by the round's
 * lease, so the fault harness can tell afterwards, from the database alone, which rounds committed
 * under which term and when.
 *
 * <p>The transaction reads the database clock first ({@code start_ms}), works for {@code params.work_ms}
 * (so a fault can land mid-round, with the transaction open), then locks the job's row of
 * {@code probe_high} and reads the highest term committed so far ({@code seen_term}), reads the clock
 * again ({@code end_ms}), inserts its row and raises the high-water term. The lock orders the probe
 * transactions of one job by commit: a transaction that commits after one of a later term has seen
 * that term, which is how the checker finds a stale commit.
 */
public final class ProbeJob implements Job {
    static final String WORK_MS = "work_ms";

    @Override
    public String type() {
        return "probe";
    }

    @Override
    public List<String> checkParams(Map<String, Object> params) {
        List<String> problems = new ArrayList<>();
        if (workMs(params) < 0) {
            problems.add("params." + WORK_MS + ": required, a non-negative integer of milliseconds");
        }
        params.keySet().stream().filter(k -> !k.equals(WORK_MS))
                .forEach(k -> problems.add("params." + k + ": unknown key; known keys: " + WORK_MS));
        return problems;
    }

    @Override
    public void run(JobContext context) throws Exception {
        long workMs = workMs(context.params());
        context.inTransaction(conn -> {
            String now = nowMillis(conn);
            long start = single(conn, "SELECT " + now);
            String holder = holder(conn, context.jobName());
            Thread.sleep(workMs); // interrupted when the round is cut short: the transaction rolls back
            long seen = highWater(conn, context.jobName());
            long end = single(conn, "SELECT " + now);
            try (PreparedStatement insert = conn.prepareStatement("INSERT INTO probe_rounds"
                    + " (job, instant_ms, term, holder, rerun, start_ms, end_ms, seen_term) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, context.jobName());
                insert.setLong(2, context.instant().toEpochMilli());
                insert.setLong(3, context.term());
                insert.setString(4, holder);
                insert.setInt(5, context.rerun() ? 1 : 0);
                insert.setLong(6, start);
                insert.setLong(7, end);
                insert.setLong(8, seen);
                insert.executeUpdate();
            }
            try (PreparedStatement raise = conn.prepareStatement(
                    "UPDATE probe_high SET term = ? WHERE job = ? AND term < ?")) {
                raise.setLong(1, context.term());
                raise.setString(2, context.jobName());
                raise.setLong(3, context.term());
                raise.executeUpdate();
            }
            return null;
        });
    }

    /** The params' work time in ms, or -1 when it is missing or not a whole number. */
    private static long workMs(Map<String, Object> params) {
        Object value = params.get(WORK_MS);
        try {
            return value == null ? -1 : Math.max(-1, Long.parseLong(value.toString()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Locks the job's high-water row until commit and returns the highest term committed before. */
    private static long highWater(Connection conn, String job) throws SQLException {
        try (PreparedStatement select = conn.prepareStatement("SELECT term FROM probe_high WHERE job = ? FOR UPDATE")) {
            select.setString(1, job);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("probe_high has no row for " + job + ": the harness creates one per job");
                }
                return rs.getLong(1);
            }
        }
    }

    /**
     * The holder token on the job's lease row. The SPI does not hand it to a job; right after the
     * guard's verify, the row names this round's holder unless the lease was already lost again.
     */
    private static String holder(Connection conn, String job) throws SQLException {
        try (PreparedStatement select = conn.prepareStatement("SELECT holder FROM gst_leases WHERE name = ?")) {
            select.setString(1, "cron:" + job);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? rs.getString(1) : "";
            }
        }
    }

    private static long single(Connection conn, String sql) throws SQLException {
        try (PreparedStatement st = conn.prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The database clock in UTC ms, the same expressions the lease statements use. */
    private static String nowMillis(Connection conn) throws SQLException {
        String product = conn.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.contains("postgres")) {
            return "CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) AS BIGINT)";
        }
        return "(UNIX_TIMESTAMP() * 1000 + MICROSECOND(NOW(3)) DIV 1000)";
    }
}
