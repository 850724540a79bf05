package dev.leasecron.lease;

import dev.leasecron.lease.sql.Dialect;
import dev.leasecron.lease.sql.FoundUnfinished;
import dev.leasecron.lease.sql.LeaseRow;
import dev.leasecron.lease.sql.LeaseStore;
import dev.leasecron.lease.sql.SlotRow;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
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
    private static final int SLOT_CLAIM_TRIES = 3;

    private final DataSource primary;
    private final LeaseTimings timings;
    private final String instance;
    private final LeaseListener listener;
    private final DatabaseClock clock = new DatabaseClock(System::nanoTime);
    private volatile LeaseStore store;
    private volatile RuntimeException unavailable;

    private Leases(DataSource primary, LeaseTimings timings, String instance, LeaseListener listener) {
        this.primary = Objects.requireNonNull(primary, "primary");
        this.timings = Objects.requireNonNull(timings, "timings");
        this.instance = instance;
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * Leases over {@code primary}; nothing is read until {@link #initialize()}.
     *
     * @param instanceBase the name this process goes by in the lease rows (a random suffix per boot is
     *     added); null or blank for the host name
     */
    public static Leases create(DataSource primary, LeaseTimings timings, String instanceBase, LeaseListener listener) {
        return new Leases(primary, timings, Tokens.newInstance(instanceBase), listener);
    }

    /**
     * Learns the kind of the primary database and creates {@code gst_leases} when missing
     * (idempotent, safe from many replicas at once).
     *
     * @throws UnsupportedDatabaseException the database cannot carry leases (ClickHouse)
     * @throws LeaseDatabaseException the database could not be reached
     */
    public void initialize() {
        Dialect dialect;
        try {
            dialect = LeaseStore.detect(primary);
        } catch (UnsupportedDatabaseException e) {
            unavailable = e;
            throw e;
        }
        LeaseStore s = new LeaseStore(primary, dialect, timings.leaseDuration(), timings.attemptTimeout());
        s.createTableIfMissing();
        store = s;
    }

    /**
     * Reports whether the primary database can carry leases: returns on PostgreSQL, MySQL/MariaDB and
     * SQLite. A capability built on leases checks it as it starts, so a deployment that cannot
     * coordinate fails at start-up instead of running every replica as if it were alone.
     *
     * @throws UnsupportedDatabaseException on ClickHouse or another database the protocol cannot use
     * @throws IllegalStateException before {@link #initialize()} has succeeded
     */
    public void available() {
        if (unavailable != null) {
            throw unavailable;
        }
        if (store == null) {
            throw new IllegalStateException("leases are not initialized: the primary database has not been opened yet");
        }
    }

    /** Whether the database answers and the lease table is there: a readiness check. */
    public boolean ready() {
        LeaseStore s = store;
        return s != null && s.tableExists();
    }

    /** The kind of the primary database. */
    public Dialect dialect() {
        return store().dialect();
    }

    /** The timings every lease of this object keeps. */
    public LeaseTimings timings() {
        return timings;
    }

    /** The name this process goes by in the lease rows: host name plus a suffix new per boot. */
    public String instance() {
        return instance;
    }

    /** The database clock as this process knows it, fed by the statements that read it. */
    public DatabaseClock clock() {
        return clock;
    }

    /**
     * How soon a caller tries again after the database failed to answer: the cadence the protocol
     * already keeps against it, which a caller waiting for the same database has no reason to beat.
     */
    public Duration retryInterval() {
        return timings.renewInterval();
    }

    /**
     * Tries to take {@code name}, once, without waiting.
     *
     * @return the handle when the name was free (never claimed, expired or released); empty when
     *     someone holds it
     * @throws IllegalArgumentException the name cannot be held (see {@link LeaseName})
     * @throws LeaseDatabaseException the database did not answer
     */
    public Optional<Handle> claim(String name) {
        LeaseName.validate(name);
        LeaseStore s = store();
        String holder = Tokens.newHolder();
        long started = System.nanoTime();
        if (s.claim(name, holder, instance) == 1) {
            // The update moved the term without telling us where to; the holder token finds it.
            long term = s.verify(name, holder).orElseThrow(() ->
                    new LeaseDatabaseException("claimed " + name + " but could not read its term back", null));
            return Optional.of(handle(name, holder, term, started, 0, false, null));
        }
        started = System.nanoTime();
        if (s.insertClaim(name, holder, instance) == 1) {
            return Optional.of(handle(name, holder, 1, started, 0, false, null));
        }
        return Optional.empty();
    }

    /**
     * Claims {@code slot}, an instant of a scheduler's job, under {@code name}: the name must be free,
     * and {@code slot} later than the last instant on record under it (the last claimed, or the last
     * one a round that ran to its end took along, see {@link Handle#finish}). The claim records
     * {@code slot} as the last instant claimed, and as unfinished until the handle finishes. A cluster
     * thus claims each instant of a job once, whichever replica gets there first; only a round cut
     * short is claimed a second time, see {@link #claimRerun}.
     *
     * <p>The instant claimed before under the name, when its round has not run to its end, is given
     * up by this claim and never runs again: {@link Handle#superseded()} names it.
     *
     * @return the handle; empty when someone holds the name or {@code slot} is not later than the
     *     instant on record
     */
    public Optional<Handle> claimSlot(String name, Instant slot) {
        LeaseName.validate(name);
        long slotMs = slotMillis(slot);
        LeaseStore s = store();
        for (int attempt = 0; attempt < SLOT_CLAIM_TRIES; attempt++) {
            Optional<SlotRow> read = s.readSlot(name);
            String holder = Tokens.newHolder();
            if (read.isEmpty()) {
                long started = System.nanoTime();
                if (s.insertSlot(name, holder, instance, slotMs) == 1) {
                    return Optional.of(handle(name, holder, 1, started, slotMs, false, null));
                }
                return Optional.empty(); // someone was first
            }
            SlotRow row = read.get();
            clock.observe(row.nowMs(), System.nanoTime());
            if (!row.expired() || slotMs <= row.slotMs()) {
                return Optional.empty();
            }
            long started = System.nanoTime();
            if (s.claimSlot(name, holder, instance, slotMs, row) == 1) {
                Unfinished given = row.lastUnfinished()
                        ? new Unfinished(name, Instant.ofEpochMilli(row.slotMs()), row.lastRerun(), row.term())
                        : null;
                return Optional.of(handle(name, holder, row.term() + 1, started, slotMs, false, given));
            }
            // Someone claimed first, or a round finished between the read and the write: read again.
        }
        return Optional.empty();
    }

    /**
     * Claims {@code u}'s instant a second time, {@code u} as {@link #unfinishedSlots} found it. The
     * round runs under the handle like any other and ends with {@link Handle#finish}, or with
     * {@link Handle#release} when it is cut short again, which leaves the instant unfinished for good.
     *
     * @return the handle when the instant is still free to claim a second time (the name has not
     *     changed hands since it was found); empty when it was claimed again elsewhere, its first
     *     round was recorded finished after all, a later instant was claimed, or the name is held
     */
    public Optional<Handle> claimRerun(Unfinished u) {
        LeaseName.validate(u.name());
        String holder = Tokens.newHolder();
        long started = System.nanoTime();
        if (store().claimAgain(u.name(), u.term(), holder, instance) == 1) {
            return Optional.of(handle(u.name(), holder, u.term() + 1, started, u.slot().toEpochMilli(), true, null));
        }
        return Optional.empty();
    }

    /**
     * The instants, under {@code names}, whose round was cut short and that are free to claim a
     * second time: the round has not run to its end, the instant has not been claimed a second time
     * already, no later instant has been claimed since, and the lease has expired or been released.
     * One statement answers for all the names.
     */
    public List<Unfinished> unfinishedSlots(Collection<String> names) {
        names.forEach(LeaseName::validate);
        List<FoundUnfinished> found = store().findUnfinished(names);
        return found.stream()
                .map(f -> new Unfinished(f.name(), Instant.ofEpochMilli(f.slotMs()), false, f.term()))
                .toList();
    }

    /**
     * The last instant on record under {@code name}: the last claimed, or the last a round that ran to
     * its end took along (see {@link Handle#finish}). Empty when no instant was ever claimed under it:
     * read at start-up, it tells an instant no replica claimed from a job that has never run.
     */
    public Optional<Instant> lastSlot(String name) {
        LeaseName.validate(name);
        return store().lastSlot(name).filter(ms -> ms != 0).map(Instant::ofEpochMilli);
    }

    /** The rows of {@code names} with the database clock, for operators. */
    public List<LeaseRow> rows(Collection<String> names) {
        return store().rows(names);
    }

    /** Reads the database clock now, feeding {@link #clock()}, and returns it. */
    public Instant readDatabaseClock() {
        long ms = store().nowMillis();
        clock.observe(ms, System.nanoTime());
        return Instant.ofEpochMilli(ms);
    }

    /**
     * Keeps {@code handle} renewed on a virtual thread of its own until {@link Holding#stop()}. The
     * returned scope ends the moment the lease is known lost (a renewal reports it gone, or none
     * succeeds within the local deadline of the start of the last one that did) with a
     * {@link dev.leasecron.jobs.LeaseLostException} as its reason; {@code parent} ending ends it too.
     * The renewals outlive {@code parent} on purpose: until the work has wound down the name must stay
     * this holder's.
     *
     * <p>On SQLite, reached through one connection, a renewal waits behind the work's own statements:
     * a transaction shorter than {@code localDeadline - renewInterval} can never cost the lease on its
     * own; one longer than {@code localDeadline} always does; back-to-back transactions must each be
     * shorter than half the local deadline.
     *
     * @param log the holder's own logger: a failed renewal explains a round cut short, so it belongs
     *     beside the holder's entries
     */
    public Holding hold(Handle handle, LeaseScope parent, Logger log) {
        return new Renewal(store(), timings, handle, parent, log, listener).start();
    }

    /**
     * Runs {@code work} under {@code handle} in {@code scope} (the scope {@link #hold} returned, or one
     * derived from it) on a virtual thread of its own, with the handle as the {@link CurrentLease},
     * and returns what it returned or throws what it threw (an {@link Error} comes back wrapped, its
     * stack intact).
     *
     * <p>Once the lease is lost the work has the step-down grace to return; past that the process
     * fails through {@link LeaseFailure}, and the wait goes on for as long as the process lasts, so the
     * caller never claims again beside work of its own still running. {@code scope} ending for any
     * other reason (a shutdown) is not a loss: the wait goes on, bounded by whoever stops the process;
     * a loss found meanwhile leaves the work the grace like any other.
     */
    public <T> T run(LeaseScope scope, Handle handle, Logger log, LeaseWork<T> work) throws Exception {
        return new WorkRun<T>(handle, scope, timings.stepDownGrace(), log, listener).run(work);
    }

    LeaseStore store() {
        LeaseStore s = store;
        if (s == null) {
            available();
        }
        return s;
    }

    private Handle handle(String name, String holder, long term, long started, long slotMs, boolean rerun, Unfinished given) {
        return new Handle(store, name, holder, instance, term, started, slotMs, rerun, given);
    }

    private static long slotMillis(Instant slot) {
        long ms = slot.toEpochMilli();
        if (ms <= 0) {
            throw new IllegalArgumentException("an instant must be after 1970-01-01T00:00:00Z, not " + slot);
        }
        return ms;
    }
}
