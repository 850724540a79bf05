package dev.leasecron.lease.sql;

import dev.leasecron.lease.Suspension;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * The statements of {@code gst_suspensions}: one row per suspended name, inserted by a suspension and
 * deleted by the resume. The row's existence is the whole state, so a suspension and a resume are one
 * statement each and their row counts are the verdict: an insert that inserts nothing found the name
 * suspended already (the first suspension stays), a delete that deletes nothing found it not suspended.
 */
final class SuspensionStatement {
    static final String TABLE = "gst_suspensions";
    /** The width of {@code suspended_by}, in UTF-8 bytes: what is longer is cut. */
    static final int BY_BYTES = 191;
    /** The width of {@code reason}: a line for operators, not a document. */
    static final int REASON_BYTES = 500;

    private SuspensionStatement() {}

    static void createIfMissing(Sql sql) {
        String create = "CREATE TABLE IF NOT EXISTS " + TABLE + " (name VARCHAR(191) NOT NULL,"
                + " suspended_by VARCHAR(191) NOT NULL DEFAULT '', reason VARCHAR(" + REASON_BYTES + ") NOT NULL DEFAULT '',"
                + " since_ms BIGINT NOT NULL, PRIMARY KEY (name))";
        SideTables.create(sql, TABLE, "name", () -> {
            // Binary collation on MySQL/MariaDB: names compare byte for byte, as in gst_leases.
            new BatchStatement().sql(mysql(sql) ? create + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin" : create)
                    .execute(sql);
        });
    }

    static boolean exists(Sql sql) {
        return SideTables.exists(sql, TABLE, "name");
    }

    /** Inserts the suspension of {@code name}, since now by the database clock, unless it has one: 1 or 0 rows. */
    static int insert(Sql sql, String name, String by, String reason) {
        BatchStatement insert = new BatchStatement()
                .sql((mysql(sql) ? "INSERT IGNORE INTO " : "INSERT INTO ") + TABLE
                        + " (name, suspended_by, reason, since_ms) VALUES (")
                .value(name).sql(", ").value(HistoryText.bound(by, BY_BYTES)).sql(", ")
                .value(HistoryText.bound(reason, REASON_BYTES)).sql(", " + sql.nowSql() + ")");
        return (mysql(sql) ? insert : insert.sql(" ON CONFLICT DO NOTHING")).execute(sql);
    }

    /** Deletes the suspension of {@code name}: 1 row when it had one, else 0. */
    static int delete(Sql sql, String name) {
        return new BatchStatement().sql("DELETE FROM " + TABLE + " WHERE name = ").value(name).execute(sql);
    }

    /** The suspensions among {@code names}. */
    static List<Suspension> read(Sql sql, Collection<String> names) {
        return new BatchStatement().sql("SELECT name, suspended_by, reason, since_ms FROM " + TABLE + " WHERE name IN ")
                .list(names)
                .fetch(sql, r -> new Suspension(r.getString(1), r.getString(2), r.getString(3),
                        Instant.ofEpochMilli(r.getLong(4))));
    }

    private static boolean mysql(Sql sql) {
        return sql.dialect() == Dialect.MYSQL || sql.dialect() == Dialect.MARIADB;
    }
}
