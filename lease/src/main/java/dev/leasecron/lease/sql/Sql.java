package dev.leasecron.lease.sql;

import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * What every statement needs: where to run, the database clock ({@code now}, the dialect's own
 * expression in production; a registered function in the protocol simulation), and the lease
 * duration.
 */
record Sql(DSLContext dsl, Dialect dialect, Field<Long> now, long leaseMs) {

    /** The expiry a claim or renewal writes: the database's now plus the lease duration. */
    Field<Long> expiry() {
        return now().plus(leaseMs);
    }

    /** Reads a single-row statement's count: more than one row means the name is not unique. */
    static int atMostOne(int rows, String statement) {
        if (rows > 1) {
            throw new IllegalStateException(statement + " touched " + rows + " rows; names are unique, so this is a bug");
        }
        return rows;
    }
}
