package dev.leasecron.lease.sql;

/**
 * A DELETE of at most so many rows, oldest first: a purge that holds few row locks and keeps the
 * database busy briefly per statement, however much is left to delete.
 */
final class BoundedDelete {
    private BoundedDelete() {}

    /** Deletes at most {@code max} rows of {@code table} meeting {@code where}, in {@code oldestFirst} order. */
    static int run(Sql sql, String table, BatchStatement where, String oldestFirst, int max) {
        BatchStatement s = new BatchStatement();
        switch (sql.dialect()) {
            case POSTGRES -> s.sql("DELETE FROM " + table + " WHERE ctid IN (SELECT ctid FROM " + table + " WHERE ")
                    .append(where).sql(" ORDER BY " + oldestFirst + " LIMIT ").value((long) max).sql(")");
            case SQLITE -> s.sql("DELETE FROM " + table + " WHERE rowid IN (SELECT rowid FROM " + table + " WHERE ")
                    .append(where).sql(" ORDER BY " + oldestFirst + " LIMIT ").value((long) max).sql(")");
            case MYSQL, MARIADB -> s.sql("DELETE FROM " + table + " WHERE ").append(where)
                    .sql(" ORDER BY " + oldestFirst + " LIMIT ").value((long) max);
        }
        return s.execute(sql);
    }
}
