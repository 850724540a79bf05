package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.StoreCalls.call;

import dev.leasecron.lease.LeaseRow;
import java.sql.Connection;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.jooq.impl.DSL;

/**
 * The lease table's reads that change nothing, strictly for use by the lease package, as
 * {@link LeaseStore}'s: whether a lease is still its holder's (the check that fences work under it),
 * the rows and the claiming instances operators and the census read, and the database clock. One
 * statement each, failures as {@link dev.leasecron.lease.LeaseDatabaseException}, nothing retried.
 */
public final class LeaseReads {
    private final Sql sql;

    LeaseReads(Sql sql) {
        this.sql = sql;
    }

    /** Runs verify on the database through the store's data source, in a statement of its own. */
    public OptionalLong verify(String name, String holder) {
        return call("verify", () -> VerifyStatement.verify(sql, name, holder));
    }

    /** Runs verify on {@code connection}, inside the transaction it has open. */
    public OptionalLong verifyOn(Connection connection, String name, String holder) {
        // The store's settings: the guard's check keeps its statement timeout in the caller's transaction.
        Sql inTransaction = sql.on(DSL.using(connection, sql.dialect().jooq(), sql.dsl().settings()));
        return call("verify", () -> VerifyStatement.verify(inTransaction, name, holder));
    }

    public List<LeaseRow> rows(Collection<String> names) {
        if (names.isEmpty()) {
            return List.of();
        }
        return call("read leases", () -> ReadStatement.rows(sql, names));
    }

    public Set<String> claimingInstances(Collection<String> names, long withinMs) {
        if (names.isEmpty()) {
            return Set.of();
        }
        return call("read who claims", () -> ReadStatement.claimingInstances(sql, names, withinMs));
    }

    public long nowMillis() {
        return call("read the database clock", () -> ReadStatement.now(sql));
    }
}
