package dev.leasecron.lease.sql;

import dev.leasecron.lease.LeaseDatabaseException;
import java.util.Collection;
import java.util.function.Supplier;
import org.jooq.exception.DataAccessException;

/** How the stores run a statement: a database error becomes a {@link LeaseDatabaseException} saying what failed. */
final class StoreCalls {
    private StoreCalls() {}

    static void bounded(Collection<?> batch) {
        if (batch.isEmpty() || batch.size() > Sql.MAX_BATCH) {
            throw new IllegalArgumentException("a batch statement takes 1 to " + Sql.MAX_BATCH + " rows, not " + batch.size());
        }
    }

    static <T> T call(String what, Supplier<T> statement) {
        try {
            return statement.get();
        } catch (DataAccessException e) {
            throw new LeaseDatabaseException(what + " failed: " + rootMessage(e), e);
        }
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
