package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.StoreCalls.bounded;
import static dev.leasecron.lease.sql.StoreCalls.call;
import static dev.leasecron.lease.sql.StoreCalls.rootMessage;

import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseRow;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jooq.Configuration;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;

/**
 * The lease table's statements, strictly for use by the lease package: each method is one statement
 * and returns its verdict (a row count, or what it read); the history's and the operators' controls'
 * are in {@link #history()} and {@link #controls()}. A database that does not answer, or
 * answers with an error, surfaces as {@link LeaseDatabaseException}; nothing here retries.
 */
public final class LeaseStore {
    /**
     * The most rows a batch method takes: one statement's worth, within every driver's limit on bind
     * parameters. Callers split larger batches.
     */
    public static final int MAX_BATCH = Sql.MAX_BATCH;

    private final DataSource dataSource;
    private final Dialect dialect;
    private final Settings settings;
    private final Sql sql;
    private final HistoryStore history;
    private final ControlStore controls;

    /**
     * @param leaseDuration what a claim or renewal adds to the database's now
     * @param statementTimeout how long any statement may run before the driver cancels it
     */
    public LeaseStore(DataSource dataSource, Dialect dialect, Duration leaseDuration, Duration statementTimeout) {
        this(dataSource, dialect, leaseDuration, statementTimeout, dialect.nowMillis());
    }

    /**
     * A store whose statements read the database clock through {@code now} instead of the dialect's
     * expression: the seam the deterministic protocol simulation drives the real statements through,
     * on SQLite with a virtual clock registered as a function.
     */
    LeaseStore(DataSource dataSource, Dialect dialect, Duration leaseDuration, Duration statementTimeout, Field<Long> now) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        Settings base = new Settings().withExecuteLogging(false);
        // sqlite-jdbc turns a query timeout into the connection's busy timeout, replacing the URL's;
        // a statement there waits on the file lock, which the URL's busy_timeout bounds.
        this.settings = dialect.singleConnection()
                ? base
                : base.withQueryTimeout((int) Math.max(1, Math.ceilDiv(statementTimeout.toMillis(), 1000)));
        Configuration configuration = new DefaultConfiguration().set(dataSource).set(dialect.jooq()).set(settings)
                .set(SynchronousCommit.LISTENER);
        this.sql = new Sql(DSL.using(configuration), dialect, now, leaseDuration.toMillis());
        this.history = new HistoryStore(sql);
        this.controls = new ControlStore(sql);
    }

    /**
     * The dialect of the database behind {@code dataSource}, from its driver's product name.
     *
     * @throws dev.leasecron.lease.UnsupportedDatabaseException the protocol cannot run there
     * @throws LeaseDatabaseException the database could not be reached
     */
    public static Dialect detect(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return Dialect.fromProductName(c.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw new LeaseDatabaseException("cannot reach the primary database: " + driverMessage(e), e);
        }
    }

    /**
     * What the driver said when a connection failed ({@code password authentication failed},
     * {@code Connection refused}, {@code database "x" does not exist}): the message of the innermost
     * {@link SQLException}. A pool wraps the driver's exception in its own timeout, which says only
     * that no connection came; the driver's, when there is one, is its cause.
     */
    static String driverMessage(SQLException e) {
        SQLException innermost = e;
        for (Throwable t = e.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getMessage() != null) {
                innermost = sql;
            }
        }
        if (innermost.getMessage() != null) {
            return innermost.getMessage();
        }
        return rootMessage(e);
    }

    public Dialect dialect() {
        return dialect;
    }

    /** The statements of the round history ({@code gst_history}). */
    public HistoryStore history() {
        return history;
    }

    /** The statements of the operators' controls ({@code gst_suspensions}, {@code gst_run_requests}). */
    public ControlStore controls() {
        return controls;
    }

    public void createTableIfMissing() {
        call("create gst_leases", () -> {
            SchemaStatement.createIfMissing(sql);
            return null;
        });
    }

    public boolean tableExists() {
        return call("read gst_leases", () -> SchemaStatement.exists(sql));
    }

    public int claim(String name, String holder, String instance) {
        return call("claim", () -> ClaimStatement.takeOver(sql, name, holder, instance));
    }

    public int insertClaim(String name, String holder, String instance) {
        return call("claim", () -> ClaimStatement.insertNew(sql, name, holder, instance));
    }

    public int renew(String name, String holder) {
        return call("renew", () -> RenewStatement.renew(sql, name, holder));
    }

    /** Runs verify on the database through {@code dataSource}, in a statement of its own. */
    public OptionalLong verify(String name, String holder) {
        return call("verify", () -> VerifyStatement.verify(sql, name, holder));
    }

    /** Runs verify on {@code connection}, inside the transaction it has open. */
    public OptionalLong verifyOn(Connection connection, String name, String holder) {
        DSLContext onConnection = DSL.using(connection, dialect.jooq(), settings);
        Sql inTransaction = sql.on(onConnection);
        return call("verify", () -> VerifyStatement.verify(inTransaction, name, holder));
    }

    public int release(String name, String holder) {
        return call("release", () -> ReleaseStatement.release(sql, name, holder));
    }

    public Optional<SlotRow> readSlot(String name) {
        return call("claim an instant: read", () -> SlotClaimStatement.read(sql, name));
    }

    public int claimSlot(String name, String holder, String instance, long slotMs, SlotRow read) {
        return call("claim an instant", () -> SlotClaimStatement.claim(sql, name, holder, instance, slotMs, read));
    }

    public int insertSlot(String name, String holder, String instance, long slotMs) {
        return call("claim an instant", () -> SlotClaimStatement.insertNew(sql, name, holder, instance, slotMs));
    }

    /** The rows of {@code names} that exist, by name, as the claim of an instant reads them; one statement. */
    public Map<String, SlotRow> readSlots(Collection<String> names) {
        bounded(names);
        return call("claim an instant: read", () -> SlotClaimStatement.readMany(sql, names));
    }

    /** Writes every claim whose row is still as read; returns the names claimed. One statement. */
    public Set<String> claimSlots(List<SlotClaim> claims, String instance, long slotMs) {
        bounded(claims);
        return call("claim an instant", () -> SlotClaimStatement.claimMany(sql, claims, instance, slotMs));
    }

    /**
     * True where the claim of an instant for many names is one statement, {@link #claimFreeSlots}, in
     * place of {@link #readSlots} and {@link #claimSlots}: on PostgreSQL.
     */
    public boolean claimsInOneStatement() {
        return dialect == Dialect.POSTGRES;
    }

    /**
     * Builds, without running it, the claim of the instant for every name of {@code tokens} (name to the
     * token minted for it) whose lease is free and whose instant on record is earlier; one statement,
     * on PostgreSQL only.
     *
     * @param skipLocked pass over the rows another transaction holds, reported as
     *     {@linkplain SlotOutcome#skipped skipped}, rather than wait for them
     */
    public FreeSlotClaim prepareFreeSlots(Map<String, String> tokens, String instance, long slotMs,
            boolean skipLocked) {
        bounded(tokens.keySet());
        if (!claimsInOneStatement()) {
            throw new UnsupportedOperationException("one-statement claims run on PostgreSQL only, not " + dialect);
        }
        return SlotClaimStatement.prepareFree(sql, tokens, instance, slotMs, skipLocked);
    }

    /**
     * Runs a claim {@link #prepareFreeSlots} built.
     *
     * @return the outcome per name with a row; a name without one is not in the map
     */
    public Map<String, SlotOutcome> claimFreeSlots(FreeSlotClaim claim) {
        return call("claim an instant", () -> SlotClaimStatement.claimFree(sql, claim));
    }

    /** Inserts a row for each name of {@code fresh} (name to token) nobody inserted first; returns those. */
    public Set<String> insertSlots(Map<String, String> fresh, String instance, long slotMs) {
        bounded(fresh.keySet());
        return call("claim an instant: insert", () -> SlotClaimStatement.insertMany(sql, fresh, instance, slotMs));
    }

    /** Renews every lease of {@code held} still held; returns those. One statement. */
    public Set<HeldName> renewAll(Collection<HeldName> held) {
        bounded(held);
        return call("renew", () -> RenewStatement.renewMany(sql, held));
    }

    /** Releases every lease of {@code held} still held; returns those. One statement. */
    public Set<HeldName> releaseAll(Collection<HeldName> held) {
        bounded(held);
        return call("release", () -> ReleaseStatement.releaseMany(sql, held));
    }

    /** Finishes every round of {@code ended} whose lease is still its own; returns those. One statement. */
    public Set<HeldName> finishAll(List<Finishing> ended) {
        bounded(ended);
        return call("finish", () -> FinishStatement.withLeaseMany(sql, ended));
    }

    /** Records the end of every round of {@code ended} without its lease. One statement. */
    public void finishAllWithoutLease(Collection<Finishing> ended) {
        bounded(ended);
        call("finish", () -> {
            FinishStatement.withoutLeaseMany(sql, ended);
            return null;
        });
    }

    public int finish(String name, String holder, long passedMs) {
        return call("finish", () -> FinishStatement.withLease(sql, name, holder, passedMs));
    }

    public int finishWithoutLease(String name, long slotMs) {
        return call("finish", () -> FinishStatement.withoutLease(sql, name, slotMs));
    }

    /**
     * The cut-short instants of {@code names} free to claim again, and those whose lease expires
     * within {@code lookAheadMs}; one statement.
     */
    public List<FoundUnfinished> findUnfinished(Collection<String> names, long lookAheadMs) {
        if (names.isEmpty()) {
            return List.of();
        }
        return call("find unfinished", () -> RerunStatement.find(sql, names, lookAheadMs));
    }

    public int claimLastAgain(String name, long term, long slotMs, String holder, String instance) {
        return call("claim the last instant again", () -> RerunStatement.claimLastAgain(sql, name, term, slotMs, holder,
                instance));
    }

    public int claimAgain(String name, long term, String holder, String instance) {
        return call("claim again", () -> RerunStatement.claimAgain(sql, name, term, holder, instance));
    }

    public Optional<Long> lastSlot(String name) {
        return call("last slot", () -> ReadStatement.lastSlot(sql, name));
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

    /**
     * {@link #finishAll(List)}, preceded by the completion of {@code history} as a statement of its own.
     * The finish keeps its single autocommit statement (its timeout and synchronous-commit check on
     * PostgreSQL); a history statement that fails is reported to {@code historyFailed} and never costs
     * a round its finish.
     */
    public Set<HeldName> finishAll(List<Finishing> ended, List<HistoryCompletion> history,
            Consumer<LeaseDatabaseException> historyFailed) {
        bounded(ended);
        completeHistory(history, historyFailed);
        return call("finish", () -> FinishStatement.withLeaseMany(sql, ended));
    }

    /** {@link #finishAllWithoutLease(Collection)} with the completion of {@code history}, as {@link #finishAll(List, List, Consumer)}. */
    public void finishAllWithoutLease(Collection<Finishing> ended, List<HistoryCompletion> history,
            Consumer<LeaseDatabaseException> historyFailed) {
        bounded(ended);
        completeHistory(history, historyFailed);
        call("finish", () -> {
            FinishStatement.withoutLeaseMany(sql, ended);
            return null;
        });
    }

    /** {@link #releaseAll(Collection)} with the completion of {@code history}, as {@link #finishAll(List, List, Consumer)}. */
    public Set<HeldName> releaseAll(Collection<HeldName> held, List<HistoryCompletion> history,
            Consumer<LeaseDatabaseException> historyFailed) {
        bounded(held);
        completeHistory(history, historyFailed);
        return call("release", () -> ReleaseStatement.releaseMany(sql, held));
    }

    /**
     * Written before the lease statement, not after: a replica that dies between the two leaves an
     * instant unfinished, whose rerun adds its own row beside this accurate one, rather than a
     * finished instant whose row would stay {@code running} for good.
     */
    private void completeHistory(List<HistoryCompletion> ended, Consumer<LeaseDatabaseException> historyFailed) {
        if (ended.isEmpty()) {
            return;
        }
        try {
            history.complete(ended);
        } catch (LeaseDatabaseException e) {
            historyFailed.accept(e);
        }
    }
}
