package dev.leasecron.lease;

import dev.leasecron.lease.sql.FoundUnfinished;
import dev.leasecron.lease.sql.LeaseStore;
import dev.leasecron.lease.sql.SlotRow;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The instants of a scheduler's jobs under their lease names (the protocol's slots): claims of an
 * instant, one name at a time or in batch statements, the finish that records a round's end, the
 * rerun of an instant cut short, and the last instant on record. Every claim follows the protocol of
 * {@link Leases}: a name is held by one holder at a time, decided by the database clock. Reached
 * through {@link Leases#slots()}.
 */
public final class InstantSlots {
    /** How often a claim reads and writes again when another claim or a finish changed its row in between. */
    static final int SLOT_CLAIM_TRIES = 3;

    private final Leases leases;

    InstantSlots(Leases leases) {
        this.leases = leases;
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
        LeaseStore s = leases.store();
        for (int attempt = 0; attempt < SLOT_CLAIM_TRIES; attempt++) {
            Optional<SlotRow> read = s.readSlot(name);
            String holder = Tokens.newHolder();
            if (read.isEmpty()) {
                long started = System.nanoTime();
                if (s.insertSlot(name, holder, leases.instance(), slotMs) == 1) {
                    return recorded(leases.handle(name, holder, 1, started, slotMs, false, null, 0));
                }
                return Optional.empty(); // someone was first
            }
            SlotRow row = read.get();
            leases.clock().observe(row.nowMs(), System.nanoTime());
            if (!row.expired() || slotMs <= row.slotMs()) {
                return Optional.empty();
            }
            long started = System.nanoTime();
            if (s.claimSlot(name, holder, leases.instance(), slotMs, row) == 1) {
                return recorded(slotHandle(name, holder, started, slotMs, row));
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
     * <p>One statement per {@link Leases#MAX_BATCH} names, in name order; how they read, lock and
     * write the rows is told at {@link BatchSlotClaims}.
     *
     * @return for each distinct name, in the order given, the handle or empty; or, for the names of a
     *     statement that failed, its {@link LeaseDatabaseException}. A name claimed is never in the
     *     failed map: its handle is the caller's to run, finish or release.
     * @throws IllegalArgumentException a name cannot be held (see {@link LeaseName}); nothing ran
     */
    public BatchResult<String, Optional<Handle>> claimSlots(Instant slot, Collection<String> names) {
        Map<String, Optional<Handle>> answered = new HashMap<>();
        Map<String, LeaseDatabaseException> failed = new HashMap<>();
        claimSlots(slot, names, Set.of(), part -> {
            answered.putAll(part.answered());
            failed.putAll(part.failed());
        });
        return new BatchResult<>(Batches.inOrder(names, answered), Batches.inOrder(names, failed));
    }

    /**
     * {@link #claimSlots(Instant, Collection)}, handing over each statement's names as soon as that
     * statement has returned, so the rounds of the first names can start while the later ones are
     * claimed. Every distinct name given is in exactly one part; the names are validated before any
     * statement runs. The history rows of the names in {@code caughtUp} have the trigger
     * {@link HistoryTrigger#CATCH_UP} (the others {@link HistoryTrigger#SCHEDULED}); each statement's
     * rounds claimed have their rows handed to the history's group commit, which writes them off this
     * thread, before its part is handed over.
     *
     * @param part called once per statement, on the calling thread, with its names' handles or failure;
     *     the names a statement passed over because another transaction held them come in a part of
     *     their own, after
     * @throws IllegalArgumentException a name cannot be held (see {@link LeaseName}); nothing ran
     */
    public void claimSlots(Instant slot, Collection<String> names, Set<String> caughtUp,
            Consumer<BatchResult<String, Optional<Handle>>> part) {
        new BatchSlotClaims(leases, slot, names).send(answers -> {
            leases.history().claimed(answers.answered().values().stream().flatMap(Optional::stream).toList(),
                    name -> caughtUp.contains(name) ? HistoryTrigger.CATCH_UP : HistoryTrigger.SCHEDULED);
            part.accept(answers);
        });
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
        if (leases.store().claimAgain(u.name(), u.term(), holder, leases.instance()) == 1) {
            Handle h = leases.handle(u.name(), holder, u.term() + 1, started, u.slot().toEpochMilli(), true, null, 0);
            leases.history().rerunClaimed(u, h);
            return Optional.of(h);
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
        List<FoundUnfinished> found = leases.store().findUnfinished(names, lookAhead.toMillis());
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
        return leases.store().lastSlot(name).filter(ms -> ms != 0).map(Instant::ofEpochMilli);
    }

    /**
     * Claims {@code slot} a second time for a late run of an instant that did not run: an instant of a
     * suspended job, caught up when the job is resumed. {@code slot} must be the last instant on record
     * under {@code name}, finished (not cut short), never claimed a second time, and the name free.
     * The claim records it as claimed a second time, so it is taken again this way at most once
     * cluster-wide however many replicas ask, and a round of it cut short is not run again (as a
     * rerun cut short is not); its history row has the trigger {@link HistoryTrigger#CATCH_UP}.
     * The caller decides that the instant did not run; this claim only makes the run exclusive.
     *
     * @return the handle, its round to run and finish as any other; empty when any condition fails
     */
    public Optional<Handle> claimLastAgain(String name, Instant slot) {
        LeaseName.validate(name);
        long slotMs = slotMillis(slot);
        LeaseStore s = leases.store();
        Optional<SlotRow> read = s.readSlot(name);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        SlotRow row = read.get();
        leases.clock().observe(row.nowMs(), System.nanoTime());
        if (!row.expired() || row.slotMs() != slotMs || row.unfinishedSlotMs() != 0 || row.rerunSlotMs() >= slotMs) {
            return Optional.empty();
        }
        String holder = Tokens.newHolder();
        long started = System.nanoTime();
        if (s.claimLastAgain(name, row.term(), slotMs, holder, leases.instance()) != 1) {
            return Optional.empty();
        }
        Handle h = leases.handle(name, holder, row.term() + 1, started, slotMs, false, null, 0);
        leases.history().claimed(List.of(h), n -> HistoryTrigger.CATCH_UP);
        return Optional.of(h);
    }

    private Optional<Handle> recorded(Handle h) {
        leases.history().claimed(List.of(h), name -> HistoryTrigger.SCHEDULED);
        return Optional.of(h);
    }

    /** The handle of an instant claimed over {@code read}, naming the unfinished instant it gave up. */
    Handle slotHandle(String name, String holder, long started, long slotMs, SlotRow read) {
        Unfinished given = read.lastUnfinished()
                ? new Unfinished(name, Instant.ofEpochMilli(read.slotMs()), read.lastRerun(), read.term())
                : null;
        return leases.handle(name, holder, read.term() + 1, started, slotMs, false, given, read.slotMs());
    }

    static long slotMillis(Instant slot) {
        long ms = slot.toEpochMilli();
        if (ms <= 0) {
            throw new IllegalArgumentException("an instant must be after 1970-01-01T00:00:00Z, not " + slot);
        }
        return ms;
    }
}
