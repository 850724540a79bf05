package dev.leasecron.lease;

import dev.leasecron.lease.sql.LeaseStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;

/**
 * Leases on the primary database: names that at most one healthy process among those sharing the
 * database holds at a time, decided by the database clock. Created once per process over the primary
 * database and passed to whatever coordinates through it; see the package documentation for what it
 * guarantees and what it does not.
 *
 * <p>Claims never wait: a name held elsewhere is a normal empty result, and only a database that does
 * not answer throws ({@link LeaseDatabaseException}, try again after {@link #retryInterval()}).
 */
public final class Leases {
    /** How long a renewal waits for the others falling due with it: 10 ms late costs nothing against seconds. */
    private static final Duration RENEW_WINDOW = Duration.ofMillis(10);

    /** The most names or handles one batch statement carries; a larger batch runs as several. */
    public static final int MAX_BATCH = LeaseStore.MAX_BATCH;

    private final PrimaryDatabase database;
    private final LeaseTimings timings;
    private final String instance;
    private final LeaseListener listener;
    private final DatabaseClock clock = new DatabaseClock(System::nanoTime);
    private final HandleBatches batches = new HandleBatches(this);
    /** Every held handle renews through it, so the renewals falling due together share a statement. */
    private final Coalescer<Handle, Boolean> renewals = new Coalescer<>("lease-renew", RENEW_WINDOW, batches::renewAll);
    private final NameClaims nameClaims = new NameClaims(this);
    private final InstantSlots slots = new InstantSlots(this);
    private final LeaseViews views = new LeaseViews(this);
    private final RoundHistory history = new RoundHistory(this);
    private final JobControls controls = new JobControls(this);
    private final ManualRounds manualRounds = new ManualRounds(this);

    private Leases(DataSource primary, LeaseTimings timings, String instance, LeaseListener listener) {
        this.database = new PrimaryDatabase(primary, timings);
        this.timings = Objects.requireNonNull(timings, "timings");
        this.instance = instance;
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * Leases over {@code primary}, read from {@link #initialize()} on, going by {@code instanceBase}
     * (null or blank: the host name) plus a random suffix per boot in the lease rows.
     */
    public static Leases create(DataSource primary, LeaseTimings timings, String instanceBase, LeaseListener listener) {
        return new Leases(primary, timings, Tokens.newInstance(instanceBase), listener);
    }

    /**
     * Leases over {@code primary} going by {@code instance} in the lease rows exactly as given: the
     * caller keeps it unique among the replicas sharing the database.
     *
     * @throws IllegalArgumentException the name is blank or longer than the column's 191 UTF-8 bytes
     */
    public static Leases named(DataSource primary, LeaseTimings timings, String instance, LeaseListener listener) {
        if (instance.isBlank() || instance.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 191) {
            throw new IllegalArgumentException("an instance name has 1 to 191 UTF-8 bytes, was \"" + instance + "\"");
        }
        return new Leases(primary, timings, instance, listener);
    }

    /**
     * Learns the kind of the primary database and creates {@code gst_leases}, {@code gst_suspensions}
     * and {@code gst_run_requests} (and {@code gst_history} when the history is kept) when missing
     * (idempotent, safe from many replicas at once).
     *
     * @throws UnsupportedDatabaseException the database cannot carry leases (ClickHouse)
     * @throws LeaseDatabaseException the database could not be reached
     */
    public void initialize() {
        database.initialize(history.enabled());
    }

    /**
     * {@link #initialize()} creating nothing, for readers such as {@code leasecron status}: after
     * {@code true} the reads ({@link #views()}, {@link #readDatabaseClock}) work.
     *
     * @return false when the table is missing: no replica has started on this database yet
     * @throws UnsupportedDatabaseException the database cannot carry leases (ClickHouse)
     * @throws LeaseDatabaseException the database could not be reached
     */
    public boolean openExisting() {
        return database.openExisting();
    }

    /**
     * Returns when the primary database can carry leases (PostgreSQL, MySQL/MariaDB, SQLite), so a
     * deployment that cannot coordinate fails at start instead of running every replica alone.
     *
     * @throws UnsupportedDatabaseException on ClickHouse or another database the protocol cannot use
     * @throws IllegalStateException before {@link #initialize()} has succeeded
     */
    public void available() {
        database.available();
    }

    /** Whether the database answers and the lease table is there: a readiness check. */
    public boolean ready() {
        return database.ready();
    }

    /** The instants of a scheduler's jobs: claims of an instant, finishes, reruns, the last on record. */
    public InstantSlots slots() {
        return slots;
    }

    /** Renewals, releases and finishes of many handles, one statement per {@link #MAX_BATCH} names. */
    public HandleBatches batches() {
        return batches;
    }

    /** Reads of the lease table for operators and the census of replicas. */
    public LeaseViews views() {
        return views;
    }

    /** The round history: what ran, where, how it ended, and the instants that did not run. */
    public RoundHistory history() {
        return history;
    }

    /** Operators' suspensions of jobs and requests to run a job now, shared by every replica. */
    public JobControls controls() {
        return controls;
    }

    /** The replicas' side of the requests to run a job now: the pending ones, and their claims. */
    public ManualRounds manualRounds() {
        return manualRounds;
    }

    /**
     * Whether rounds and instants not run are written to the history ({@code gst_history}), on by
     * default; set before {@link #initialize()}, which creates the table only when on. Off, nothing is
     * written and the table is neither created nor read by the protocol.
     */
    public void keepHistory(boolean on) {
        history.enable(on);
    }

    /** A history statement failed: heard by the listener, never thrown at the protocol. */
    void historyFailed(LeaseDatabaseException e) {
        try {
            listener.historyFailed(e);
        } catch (RuntimeException ignored) {
            // A listener's bug must not reach the round's protocol either.
        }
    }

    /** The kind of the primary database: {@code postgres}, {@code mysql}, {@code mariadb} or {@code sqlite}. */
    public String databaseKind() {
        return store().dialect().name().toLowerCase(Locale.ROOT);
    }

    /** The timings every lease of this object keeps. */
    public LeaseTimings timings() {
        return timings;
    }

    /** The name this process goes by in the lease rows: as {@link #named} was given it, or host name plus a suffix new per boot. */
    public String instance() {
        return instance;
    }

    /** The database clock as this process knows it, fed by the statements that read it. */
    public DatabaseClock clock() {
        return clock;
    }

    /** How soon a caller tries again after the database failed to answer: the renewals' cadence. */
    public Duration retryInterval() {
        return timings.renewInterval();
    }

    /**
     * Tries to take {@code name}, once, without waiting.
     *
     * @return the handle when the name was free (never claimed, expired or released); empty if held
     * @throws IllegalArgumentException the name cannot be held (see {@link LeaseName})
     * @throws LeaseDatabaseException the database did not answer
     */
    public Optional<Handle> claim(String name) {
        return nameClaims.claim(name);
    }

    /** Reads the database clock now, feeding {@link #clock()}, and returns it. */
    public Instant readDatabaseClock() {
        long ms = store().reads().nowMillis();
        clock.observe(ms, System.nanoTime());
        return Instant.ofEpochMilli(ms);
    }

    /**
     * Keeps {@code handle} renewed ({@link Renewal}) until {@link Holding#stop()}. The returned scope
     * ends with a {@link LeaseLostException} the moment the lease is known lost (a renewal finds it
     * gone, or none succeeds within the local deadline), and with {@code parent}; the renewals outlive
     * {@code parent} on purpose: until the work has wound down the name must stay this holder's.
     *
     * @param parent ends the holding's scope when it ends, until {@link Holding#stop} lets go of it: a
     *     parent that lives for days (all of a replica's rounds) holds no round that has stopped
     * @param log the holder's own logger: a failed renewal explains a round cut short, so it belongs
     *     beside the holder's entries
     */
    public Holding hold(Handle handle, LeaseScope parent, Logger log) {
        store(); // fails here, not at the first renewal, when the leases are not initialized
        return new Renewal(renewals, timings, handle, parent, log, listener).start();
    }

    /**
     * Runs {@code work} under {@code handle} in {@code scope} (the scope {@link #hold} returned, or one
     * derived from it) on the calling thread, with the handle as the {@link CurrentLease}, and returns
     * what it returned or throws what it threw (an {@link Error} comes back wrapped, its stack intact).
     * The scope ending interrupts the work; the interrupt does not outlive it.
     *
     * <p>Once the lease is lost the work has the step-down grace to return; past that the process
     * fails through {@link LeaseFailure}. {@code scope} ending for another reason (a shutdown) is not
     * a loss: the work runs on, bounded by whoever stops the process.
     */
    public <T> T run(LeaseScope scope, Handle handle, Logger log, LeaseWork<T> work) throws Exception {
        return new WorkRun<T>(handle, scope, timings.stepDownGrace(), log, listener).run(work);
    }

    LeaseStore store() {
        return database.store();
    }

    Handle handle(String name, String holder, long term, long started, long slotMs, boolean rerun, Unfinished given,
            long previousSlotMs) {
        return new Handle(database.store(), name, holder, instance, term, started, slotMs, rerun, given,
                previousSlotMs);
    }
}
