package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.StoreCalls.bounded;
import static dev.leasecron.lease.sql.StoreCalls.call;

import dev.leasecron.lease.LeaseDatabaseException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jooq.Field;

/**
 * The lease table's statements that claim, renew, release and finish, and the reads the claims of
 * instants and their reruns make, strictly for use by the lease package: each method is one
 * statement and returns its verdict (a row count, or what it read). The reads that change nothing
 * are in {@link #reads()}, the history's and the operators' controls' statements in
 * {@link #history()} and {@link #controls()}. A database that does not answer, or answers with an
 * error, surfaces as {@link LeaseDatabaseException}; nothing here retries.
 */
public final class LeaseStore {
    /**
     * The most rows a batch method takes: one statement's worth, within every driver's limit on bind
     * parameters. Callers split larger batches.
     */
    public static final int MAX_BATCH = Sql.MAX_BATCH;

    private final Dialect dialect;
    private final Sql sql;
    private final HistoryStore history;
    private final ControlStore controls;
    private final LeaseReads reads;

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
        this.dialect = dialect;
        this.sql = Sql.open(dataSource, dialect, now, leaseDuration, statementTimeout);
        this.history = new HistoryStore(sql);
        this.controls = new ControlStore(sql);
        this.reads = new LeaseReads(sql);
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

    /** The reads that change nothing: the guard's verify, the rows, the claiming instances, the clock. */
    public LeaseReads reads() {
        return reads;
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

    /**
     * Finishes every round of {@code ended} whose lease is still its own; returns those. One statement,
     * preceded by the completion of {@code history} as a statement of its own. The finish keeps its
     * single autocommit statement (its timeout and synchronous-commit check on PostgreSQL); a history
     * statement that fails is reported to {@code historyFailed} and never costs a round its finish.
     */
    public Set<HeldName> finishAll(List<Finishing> ended, List<HistoryCompletion> history,
            Consumer<LeaseDatabaseException> historyFailed) {
        bounded(ended);
        HistoryFirst.complete(this.history, history, historyFailed);
        return call("finish", () -> FinishStatement.withLeaseMany(sql, ended));
    }

    /**
     * Records the end of every round of {@code ended} without its lease, in one statement, with the
     * completion of {@code history} as {@link #finishAll}.
     */
    public void finishAllWithoutLease(Collection<Finishing> ended, List<HistoryCompletion> history,
            Consumer<LeaseDatabaseException> historyFailed) {
        bounded(ended);
        HistoryFirst.complete(this.history, history, historyFailed);
        call("finish", () -> {
            FinishStatement.withoutLeaseMany(sql, ended);
            return null;
        });
    }

    /**
     * Releases every lease of {@code held} still held and returns those, in one statement, with the
     * completion of {@code history} as {@link #finishAll}.
     */
    public Set<HeldName> releaseAll(Collection<HeldName> held, List<HistoryCompletion> history,
            Consumer<LeaseDatabaseException> historyFailed) {
        bounded(held);
        HistoryFirst.complete(this.history, history, historyFailed);
        return call("release", () -> ReleaseStatement.releaseMany(sql, held));
    }
}
