package dev.leasecron.lease;

import dev.leasecron.lease.sql.Dialect;
import dev.leasecron.lease.sql.Finishing;
import dev.leasecron.lease.sql.FoundUnfinished;
import dev.leasecron.lease.sql.FreeSlotClaim;
import dev.leasecron.lease.sql.HeldName;
import dev.leasecron.lease.sql.LeaseRow;
import dev.leasecron.lease.sql.LeaseStore;
import dev.leasecron.lease.sql.SlotClaim;
import dev.leasecron.lease.sql.SlotOutcome;
import dev.leasecron.lease.sql.SlotRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
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
    /**
     * How long a renewal waits for others to share its statement: the handles claimed together fall
     * due within a few milliseconds of each other, and a renewal 10 ms late costs nothing against a
     * renewal interval of seconds.
     */
    private static final Duration RENEW_WINDOW = Duration.ofMillis(10);
    private static final Comparator<Handle> BY_NAME = Comparator.comparing(Handle::name).thenComparing(Handle::holder);

    /** The most names or handles one batch statement carries; a larger batch runs as several. */
    public static final int MAX_BATCH = LeaseStore.MAX_BATCH;

    private final DataSource primary;
    private final LeaseTimings timings;
    private final String instance;
    private final LeaseListener listener;
    private final DatabaseClock clock = new DatabaseClock(System::nanoTime);
    /** Every held handle renews through it, so the renewals falling due together share a statement. */
    private final Coalescer<Handle, Boolean> renewals = new Coalescer<>("lease-renew", RENEW_WINDOW, this::renewAll);
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
     * Learns the kind of the primary database and creates {@code gst_leases} when missing
     * (idempotent, safe from many replicas at once).
     *
     * @throws UnsupportedDatabaseException the database cannot carry leases (ClickHouse)
     * @throws LeaseDatabaseException the database could not be reached
     */
    public void initialize() {
        LeaseStore s = detectStore();
        s.createTableIfMissing();
        store = s;
    }

    /** A store for the primary database's kind; a kind that cannot carry leases is remembered as such. */
    private LeaseStore detectStore() {
        Dialect dialect;
        try {
            dialect = LeaseStore.detect(primary);
        } catch (UnsupportedDatabaseException e) {
            unavailable = e;
            throw e;
        }
        return new LeaseStore(primary, dialect, timings.leaseDuration(), timings.attemptTimeout());
    }

    /**
     * Learns the kind of the primary database and whether {@code gst_leases} is there, creating
     * nothing: for readers such as {@code leasecron status}, which must not change the database
     * they look at. After {@code true}, the reading methods ({@link #rows}, {@link #readDatabaseClock})
     * work as after {@link #initialize()}.
     *
     * @return false when the table is missing: no replica has started on this database yet
     * @throws UnsupportedDatabaseException the database cannot carry leases (ClickHouse)
     * @throws LeaseDatabaseException the database could not be reached
     */
    public boolean openExisting() {
        LeaseStore s = detectStore();
        if (!s.tableExists()) {
            return false;
        }
        store = s;
        return true;
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

    /** The name this process goes by in the lease rows: as {@link #named} was given it, or host name plus a suffix new per boot. */
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
            return Optional.of(handle(name, holder, term, started, 0, false, null, 0));
        }
        started = System.nanoTime();
        if (s.insertClaim(name, holder, instance) == 1) {
            return Optional.of(handle(name, holder, 1, started, 0, false, null, 0));
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
     * up by this claim and never runs again: {@link Handle#superseded()} names it. The instants between
     * the one on record and {@code slot} are passed over for good: {@link Handle#previousSlot()}
     * tells where they start.
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
                    return Optional.of(handle(name, holder, 1, started, slotMs, false, null, 0));
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
                return Optional.of(slotHandle(name, holder, started, slotMs, row));
            }
            // Someone claimed first, or a round finished between the read and the write: read again.
        }
        return Optional.empty();
    }

    /**
     * {@link #claimSlot} for many names due at the same instant, with the outcome for each name that
     * {@code claimSlot(name, slot)} would have had: claimed under a token of its own (term, instant
     * given up and all), or refused because someone holds the name or {@code slot} is not later than
     * the instant on record.
     *
     * <p>Per {@link #MAX_BATCH} names it takes one read of all their rows, one write guarded row by
     * row by the term and slots read (read again and written again, for the rows another claim or a
     * finish changed in between, up to the tries a single claim makes) and one insert for the names
     * with no row yet; on PostgreSQL the read and the write are one statement, whose read locks the
     * free rows in name order and whose write takes exactly those, so nothing comes between them and
     * nothing is read again. That statement passes over the rows another transaction holds rather than
     * wait for them, so replicas claiming the same instant at once each take the rows the others have
     * not locked yet; the rows passed over are claimed by a second statement, which waits for their
     * locks and sees what held them (another replica's claim, or a round's end or renewal). The names
     * are cut into statements in sorted order whatever the order given, so replicas claiming the same
     * names do not lock their rows in opposite orders; a deadlock the database still finds rolls its
     * statement back and lands in the failed map, to be tried again like any failure. Each call starts
     * at a statement picked at random and goes round: replicas claiming the same instant at once then
     * often write different rows instead of queueing on the same ones, and its rounds spread over them.
     *
     * @return for each distinct name, in the order given, the handle or empty; or, for the names of a
     *     statement that failed, its {@link LeaseDatabaseException}. A name claimed is never in the
     *     failed map: its handle is the caller's to run, finish or release.
     * @throws IllegalArgumentException a name cannot be held (see {@link LeaseName}); nothing ran
     */
    public BatchResult<String, Optional<Handle>> claimSlots(Instant slot, Collection<String> names) {
        Map<String, Optional<Handle>> answered = new HashMap<>();
        Map<String, LeaseDatabaseException> failed = new HashMap<>();
        claimSlots(slot, names, part -> {
            answered.putAll(part.answered());
            failed.putAll(part.failed());
        });
        return new BatchResult<>(inOrder(names, answered), inOrder(names, failed));
    }

    /**
     * {@link #claimSlots(Instant, Collection)}, handing over each statement's names as soon as that
     * statement has returned, so the rounds of the first names can start while the later ones are
     * claimed. Every distinct name given is in exactly one part; the names are validated before any
     * statement runs.
     *
     * @param part called once per statement, on the calling thread, with its names' handles or failure;
     *     the names a statement passed over because another transaction held them come in a part of
     *     their own, after
     * @throws IllegalArgumentException a name cannot be held (see {@link LeaseName}); nothing ran
     */
    public void claimSlots(Instant slot, Collection<String> names, Consumer<BatchResult<String, Optional<Handle>>> part) {
        prepareSlotClaims(slot, names).send(part);
    }

    /**
     * Makes {@link #claimSlots(Instant, Collection, Consumer)} ready ahead of the instant without
     * sending anything: the names are validated, the tokens minted and, where the claim is one
     * statement, the statement built, so that once the instant comes {@link SlotClaims#send} has only
     * the statements themselves left to run. Nothing is claimed until then.
     *
     * @throws IllegalArgumentException a name cannot be held (see {@link LeaseName})
     */
    public SlotClaims prepareSlotClaims(Instant slot, Collection<String> names) {
        names.forEach(LeaseName::validate);
        long slotMs = slotMillis(slot);
        LeaseStore s = store();
        List<SlotClaims.Chunk> chunks = new ArrayList<>();
        for (List<String> chunk : chunks(names, Comparator.naturalOrder())) {
            chunks.add(new SlotClaims.Chunk(chunk, slotMs,
                    s.claimsInOneStatement() ? s.prepareFreeSlots(mint(chunk), instance, slotMs, true) : null));
        }
        return new SlotClaims(chunks, this::claimChunk);
    }

    private static Map<String, String> mint(List<String> names) {
        Map<String, String> tokens = new LinkedHashMap<>();
        names.forEach(name -> tokens.put(name, Tokens.newHolder()));
        return tokens;
    }

    /**
     * Claims a chunk's names, answering them in one part, or in two where the claim skipped rows
     * another transaction held: those are claimed again once the first part is handed over, this time
     * waiting for the lock, since what holds a row may be a round's end or a renewal rather than a
     * claim of this instant, and the instant must not be refused for it.
     */
    private void claimChunk(SlotClaims.Chunk chunk, Consumer<BatchResult<String, Optional<Handle>>> part) {
        LeaseStore s = store();
        long slotMs = chunk.slotMs();
        Map<String, String> skipped = new LinkedHashMap<>();
        part.accept(claimPart(chunk.names(), skipped.keySet(), slotMs, answered -> chunk.free() != null
                ? claimFree(s, slotMs, chunk.free(), answered, skipped)
                : readThenClaim(s, slotMs, chunk.names(), answered)));
        if (!skipped.isEmpty()) {
            FreeSlotClaim waiting = s.prepareFreeSlots(skipped, instance, slotMs, false);
            // A claim that waits for the locks it meets skips nothing.
            part.accept(claimPart(List.copyOf(skipped.keySet()), Set.of(), slotMs,
                    answered -> claimFree(s, slotMs, waiting, answered, new HashMap<>())));
        }
    }

    /**
     * One part of a chunk's claim: {@code claim} answers names and returns those with no row yet, each
     * with its token, which are inserted. When a statement fails, its failure is the answer of every
     * name of {@code names} not answered yet and not {@code deferred} to a part of its own.
     */
    private BatchResult<String, Optional<Handle>> claimPart(List<String> names, Set<String> deferred, long slotMs,
            Function<Map<String, Optional<Handle>>, Map<String, String>> claim) {
        LeaseStore s = store();
        Map<String, Optional<Handle>> answered = new HashMap<>();
        Map<String, LeaseDatabaseException> failed = new HashMap<>();
        try {
            Map<String, String> fresh = claim.apply(answered);
            if (!fresh.isEmpty()) {
                long started = System.nanoTime();
                Set<String> inserted = s.insertSlots(fresh, instance, slotMs);
                // A name nobody had claimed is decided by its insert, as in claimSlot: no second try.
                fresh.forEach((name, holder) -> answered.put(name, inserted.contains(name)
                        ? Optional.of(handle(name, holder, 1, started, slotMs, false, null, 0))
                        : Optional.empty()));
            }
        } catch (LeaseDatabaseException e) {
            names.stream().filter(name -> !answered.containsKey(name) && !deferred.contains(name))
                    .forEach(name -> failed.put(name, e));
        }
        return new BatchResult<>(answered, failed);
    }

    /**
     * The claim of a chunk as one statement whose read locks what it writes, built ahead: each name with
     * a row is answered by it, but for the rows it {@linkplain SlotOutcome#skipped skipped}, which go
     * into {@code skipped} with their tokens. Returns the names with no row yet, each with its token,
     * for the insert.
     */
    private Map<String, String> claimFree(LeaseStore s, long slotMs, FreeSlotClaim free,
            Map<String, Optional<Handle>> answered, Map<String, String> skipped) {
        Map<String, String> tokens = free.tokens();
        long started = System.nanoTime();
        Map<String, SlotOutcome> outcomes = s.claimFreeSlots(free);
        outcomes.values().stream().mapToLong(o -> o.read().nowMs()).max()
                .ifPresent(ms -> clock.observe(ms, System.nanoTime()));
        Map<String, String> fresh = new LinkedHashMap<>();
        tokens.forEach((name, holder) -> {
            SlotOutcome o = outcomes.get(name);
            if (o == null) {
                fresh.put(name, holder);
            } else if (o.skipped()) {
                skipped.put(name, holder);
            } else {
                answered.put(name, o.claimed() ? Optional.of(slotHandle(name, holder, started, slotMs, o.read()))
                        : Optional.empty());
            }
        });
        return fresh;
    }

    /**
     * The claim of {@code chunk} as a read of its rows and a write guarded by what was read, read and
     * written again for the rows that changed in between, up to the tries a single claim makes. Returns
     * the names with no row yet, each with its token, for the insert.
     */
    private Map<String, String> readThenClaim(LeaseStore s, long slotMs, List<String> chunk,
            Map<String, Optional<Handle>> answered) {
        Map<String, String> fresh = new LinkedHashMap<>();
        List<String> pending = chunk;
        for (int attempt = 0; attempt < SLOT_CLAIM_TRIES && !pending.isEmpty(); attempt++) {
            Map<String, SlotRow> rows = s.readSlots(pending);
            rows.values().stream().mapToLong(SlotRow::nowMs).max()
                    .ifPresent(ms -> clock.observe(ms, System.nanoTime()));
            List<SlotClaim> free = new ArrayList<>();
            for (String name : pending) {
                SlotRow row = rows.get(name);
                if (row == null) {
                    fresh.put(name, Tokens.newHolder());
                } else if (row.expired() && slotMs > row.slotMs()) {
                    free.add(new SlotClaim(name, Tokens.newHolder(), row));
                } else {
                    answered.put(name, Optional.empty());
                }
            }
            List<String> missed = new ArrayList<>();
            if (!free.isEmpty()) {
                long started = System.nanoTime();
                Set<String> claimed = s.claimSlots(free, instance, slotMs);
                for (SlotClaim c : free) {
                    if (claimed.contains(c.name())) {
                        answered.put(c.name(), Optional.of(slotHandle(c.name(), c.holder(), started, slotMs, c.read())));
                    } else {
                        missed.add(c.name()); // someone claimed first, or a round finished: read again
                    }
                }
            }
            pending = missed;
        }
        pending.forEach(name -> answered.put(name, Optional.empty()));
        return fresh;
    }

    /**
     * {@link Handle#renew} for many handles of this object in one statement per {@link #MAX_BATCH}:
     * each lease is extended by the lease duration from the database's now when it is still its
     * handle's, under the same condition as a single renewal.
     *
     * @return for each handle, true when renewed, false when lost (expired, taken or released, where
     *     {@code renew} throws {@link dev.leasecron.jobs.LeaseLostException}); or, for the handles of a
     *     statement that failed, its exception, which is not a loss yet
     */
    public BatchResult<Handle, Boolean> renewAll(Collection<Handle> handles) {
        return perHandle(handles, store()::renewAll);
    }

    /**
     * {@link Handle#release} for many handles of this object in one statement per {@link #MAX_BATCH}.
     *
     * @return for each handle, true when the name was given back, false when the lease was already
     *     gone (where {@code release} throws {@link dev.leasecron.jobs.LeaseLostException}); or the
     *     failure of the statement for it
     */
    public BatchResult<Handle, Boolean> releaseAll(Collection<Handle> handles) {
        return perHandle(handles, store()::releaseAll);
    }

    /**
     * {@link Handle#finish} for many rounds ending together, {@code passed} given per handle, in one
     * statement per {@link #MAX_BATCH} for the rounds still holding their lease, and one more for
     * those that no longer do (known lost, or found so by the first), which records their end
     * without the lease unless a later instant was claimed since.
     *
     * @param passed for each handle of an instant claim of this object, the last instant of its
     *     schedule that had come when its round ended
     * @return for each handle, true where {@code finish} returns: the end is recorded and the name
     *     given back, or the handle is known {@linkplain Handle#lost() lost}, so its end is recorded
     *     without the lease and giving the name back is not tried; false where {@code finish} throws
     *     {@link dev.leasecron.jobs.LeaseLostException}: the name turned out to be no longer its
     *     holder's; or the failure of the statement for it
     * @throws IllegalStateException a handle is not of an instant claim; nothing ran
     */
    public BatchResult<Handle, Boolean> finishAll(Map<Handle, Instant> passed) {
        passed.keySet().forEach(h -> h.slot().orElseThrow(() -> new IllegalStateException(
                "lease " + h.name() + " was not claimed for an instant: nothing to finish")));
        LeaseStore s = store();
        Map<Handle, Boolean> answered = new HashMap<>();
        Map<Handle, LeaseDatabaseException> failed = new HashMap<>();
        for (List<Handle> chunk : chunks(passed.keySet(), BY_NAME)) {
            // Known lost: recorded without the lease, and that is all finish does for them.
            List<Handle> knownLost = new ArrayList<>();
            List<Handle> holding = new ArrayList<>();
            for (Handle h : chunk) {
                (h.lost() ? knownLost : holding).add(h);
            }
            List<Handle> foundLost = new ArrayList<>();
            try {
                if (!holding.isEmpty()) {
                    Set<HeldName> finished = s.finishAll(holding.stream()
                            .map(h -> finishing(h, passed.get(h))).toList());
                    for (Handle h : holding) {
                        if (finished.contains(held(h))) {
                            answered.put(h, true);
                        } else {
                            foundLost.add(h);
                        }
                    }
                }
                List<Handle> withoutLease = new ArrayList<>(knownLost);
                withoutLease.addAll(foundLost);
                if (!withoutLease.isEmpty()) {
                    s.finishAllWithoutLease(withoutLease.stream().map(h -> finishing(h, passed.get(h))).toList());
                    knownLost.forEach(h -> answered.put(h, true));
                    foundLost.forEach(h -> answered.put(h, false));
                }
            } catch (LeaseDatabaseException e) {
                chunk.stream().filter(h -> !answered.containsKey(h)).forEach(h -> failed.put(h, e));
            }
        }
        return new BatchResult<>(inOrder(passed.keySet(), answered), inOrder(passed.keySet(), failed));
    }


    private BatchResult<Handle, Boolean> perHandle(Collection<Handle> handles,
            Function<List<HeldName>, Set<HeldName>> statement) {
        Map<Handle, Boolean> answered = new HashMap<>();
        Map<Handle, LeaseDatabaseException> failed = new HashMap<>();
        for (List<Handle> chunk : chunks(handles, BY_NAME)) {
            try {
                Set<HeldName> found = statement.apply(chunk.stream().map(Leases::held).toList());
                chunk.forEach(h -> answered.put(h, found.contains(held(h))));
            } catch (LeaseDatabaseException e) {
                chunk.forEach(h -> failed.put(h, e));
            }
        }
        return new BatchResult<>(inOrder(handles, answered), inOrder(handles, failed));
    }

    private static HeldName held(Handle h) {
        return new HeldName(h.name(), h.holder());
    }

    private static Finishing finishing(Handle h, Instant passed) {
        return new Finishing(h.name(), h.holder(), h.slot().orElseThrow().toEpochMilli(),
                Objects.requireNonNull(passed, "passed").toEpochMilli());
    }

    /**
     * {@code items} without repeats, sorted by name, in runs of at most {@link #MAX_BATCH}. Every
     * batch statement is given its rows in name order, so two replicas writing overlapping rows at
     * once (a claim of one among another's renewals or finishes, two claims of the same names) do not
     * take their row locks in opposite orders.
     */
    private static <T> List<List<T>> chunks(Collection<T> items, Comparator<T> byName) {
        List<T> distinct = new ArrayList<>(new LinkedHashSet<>(items));
        distinct.sort(byName);
        List<List<T>> chunks = new ArrayList<>();
        for (int from = 0; from < distinct.size(); from += MAX_BATCH) {
            chunks.add(distinct.subList(from, Math.min(distinct.size(), from + MAX_BATCH)));
        }
        return chunks;
    }

    /** The entries of {@code found} in the order their keys were given. */
    private static <K, V> Map<K, V> inOrder(Collection<K> given, Map<K, V> found) {
        Map<K, V> ordered = new LinkedHashMap<>();
        for (K k : given) {
            if (found.containsKey(k)) {
                ordered.put(k, found.get(k));
            }
        }
        return ordered;
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
            return Optional.of(handle(u.name(), holder, u.term() + 1, started, u.slot().toEpochMilli(), true, null, 0));
        }
        return Optional.empty();
    }

    /**
     * The instants, under {@code names}, whose round was cut short and that are free to claim a
     * second time: the round has not run to its end, the instant has not been claimed a second time
     * already, no later instant has been claimed since, and the lease has expired or been released.
     * One statement answers for all the names: it reads every such instant of the table, and those of
     * other names are dropped here.
     */
    public List<Unfinished> unfinishedSlots(Collection<String> names) {
        return unfinishedSlots(names, Duration.ZERO).free();
    }

    /**
     * {@link #unfinishedSlots(Collection)}, and besides, of the leases under {@code names} that hold
     * an instant whose round has not run to its end, when the first to expire within
     * {@code lookAhead} does: a sweep that wakes then claims the instant again the moment it is free,
     * ahead of the claim of the job's next instant, which would give it up. A healthy holder renews
     * long before its lease gets that close to expiring; the leases found are those of holders that
     * died or lost the database. Still one statement.
     *
     * @param lookAhead how far ahead, by the database clock, an expiry is reported; zero for none
     * @throws LeaseDatabaseException the database did not answer
     */
    public UnfinishedSlots unfinishedSlots(Collection<String> names, Duration lookAhead) {
        names.forEach(LeaseName::validate);
        List<FoundUnfinished> found = store().findUnfinished(names, lookAhead.toMillis());
        List<Unfinished> free = found.stream()
                .filter(FoundUnfinished::free)
                .map(f -> new Unfinished(f.name(), Instant.ofEpochMilli(f.slotMs()), false, f.term()))
                .toList();
        Optional<Duration> nextExpiry = found.stream()
                .filter(f -> !f.free())
                .mapToLong(FoundUnfinished::expiresInMs)
                .min().stream().mapToObj(Duration::ofMillis).findFirst();
        return new UnfinishedSlots(free, nextExpiry);
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

    /**
     * The {@linkplain #instance() instances} that claimed, under one of {@code names}, an instant no
     * older than {@code within} by the database clock: the replicas sharing these names lately, as
     * their rows tell it. A replica that stopped is counted until its instants age past
     * {@code within}; one whose names have no instant that recent is not counted. One statement.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public Set<String> claimingInstances(Collection<String> names, Duration within) {
        names.forEach(LeaseName::validate);
        return store().claimingInstances(names, within.toMillis());
    }

    /** Reads the database clock now, feeding {@link #clock()}, and returns it. */
    public Instant readDatabaseClock() {
        long ms = store().nowMillis();
        clock.observe(ms, System.nanoTime());
        return Instant.ofEpochMilli(ms);
    }

    /**
     * Keeps {@code handle} renewed on a virtual thread of its own, started when the first renewal
     * falls due (most rounds end before), until {@link Holding#stop()}. The
     * returned scope ends the moment the lease is known lost (a renewal reports it gone, or none
     * succeeds within the local deadline of the start of the last one that did) with a
     * {@link dev.leasecron.jobs.LeaseLostException} as its reason; {@code parent} ending ends it too.
     * The renewals outlive {@code parent} on purpose: until the work has wound down the name must stay
     * this holder's.
     *
     * <p>On SQLite, reached through one connection, a renewal waits behind the work's own statements:
     * a transaction shorter than {@code localDeadline - renewInterval} can never cost the lease on its
     * own; one longer than {@code localDeadline} always does; back-to-back transactions must each be
     * shorter than half the local deadline. That last bound holds only when the connection goes to
     * whoever asked for it first, so that the renewal waiting out one transaction gets it before the
     * next: give this object and {@link GuardedTransactions} the same {@link InTurn} wrapper of the
     * pool.
     *
     * <p>The renewals of all the handles this object holds share statements: those falling due within
     * a few milliseconds of each other (the handles claimed together) are renewed by one
     * {@link #renewAll} statement, each handle still told alone whether it holds. A row another
     * transaction keeps locked thus delays the renewals sharing its statement, within the same
     * attempt timeout and local deadline as a renewal of its own.
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
     * fails through {@link LeaseFailure}. The caller, running the work, never claims again beside it.
     * {@code scope} ending for any other reason (a shutdown) is not a loss: the work runs on, bounded
     * by whoever stops the process; a loss found meanwhile leaves the work the grace like any other.
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

    private Handle handle(String name, String holder, long term, long started, long slotMs, boolean rerun, Unfinished given,
            long previousSlotMs) {
        return new Handle(store, name, holder, instance, term, started, slotMs, rerun, given, previousSlotMs);
    }

    /** The handle of an instant claimed over {@code read}, naming the unfinished instant it gave up. */
    private Handle slotHandle(String name, String holder, long started, long slotMs, SlotRow read) {
        Unfinished given = read.lastUnfinished()
                ? new Unfinished(name, Instant.ofEpochMilli(read.slotMs()), read.lastRerun(), read.term())
                : null;
        return handle(name, holder, read.term() + 1, started, slotMs, false, given, read.slotMs());
    }

    private static long slotMillis(Instant slot) {
        long ms = slot.toEpochMilli();
        if (ms <= 0) {
            throw new IllegalArgumentException("an instant must be after 1970-01-01T00:00:00Z, not " + slot);
        }
        return ms;
    }
}
