package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.LeaseTable.*;

import org.jooq.CreateTableElementListStep;
import org.jooq.exception.DataAccessException;

/** Creates {@code gst_leases} when missing; safe to run from many replicas at once. */
final class SchemaStatement {
    private SchemaStatement() {}

    static void createIfMissing(Sql sql) {
        CreateTableElementListStep create = sql.dsl().createTableIfNotExists(GST_LEASES)
                .columns(NAME, HOLDER, INSTANCE, TERM, EXPIRES_AT_MS, SLOT_MS, UNFINISHED_SLOT_MS, RERUN_SLOT_MS)
                .primaryKey(NAME);
        try {
            switch (sql.dialect()) {
                // Binary collation: names are compared byte for byte, as on the other databases.
                case MYSQL, MARIADB -> create.storage("DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin").execute();
                default -> create.execute();
            }
        } catch (DataAccessException e) {
            // PostgreSQL's IF NOT EXISTS is not atomic: a replica creating the table at the same
            // moment makes this one fail on the catalog's unique index. The table is there then.
            if (!exists(sql)) {
                throw e;
            }
        }
    }

    static boolean exists(Sql sql) {
        try {
            sql.dsl().selectCount().from(GST_LEASES).where(NAME.eq("")).fetchOne(0, Integer.class);
            return true;
        } catch (DataAccessException e) {
            return false;
        }
    }
}
