package dev.leasecron.lease;

import dev.leasecron.lease.sql.HistoryClaim;
import dev.leasecron.lease.sql.LeaseStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A claimed lease: the proof of holding a name from the claim until the release, or the loss. Every
 * statement it runs matches the name and the holder token minted for this claim alone, so a handle
 * can never act on a later holder's lease. Immutable but for the lost flag, which only
 * {@link Leases#hold} sets.
 */
public final class Handle {
    private final LeaseStore store;
    private final String name;
    private final String holder;
    private final String instance;
    private final long term;
    private final long claimStartedNanos;
    private final long slotMs;
    private final boolean rerun;
    private final Unfinished superseded;
    private final long previousSlotMs;
    /** Completes with the loss once the lease is known lost. */
    private final CompletableFuture<LeaseLostException> lost = new CompletableFuture<>();
    /** The round's history row as written at its claim, for its completion; null while not written. */
    private volatile HistoryClaim historyRow;
    /** When the last renewal that succeeded started (the claim counts as the first), on the nanoTime scale. */
    private volatile long lastRenewedNanos;

    Handle(LeaseStore store, String name, String holder, String instance, long term, long claimStartedNanos,
            long slotMs, boolean rerun, Unfinished superseded, long previousSlotMs) {
        this.store = store;
        this.name = name;
        this.holder = holder;
        this.instance = instance;
        this.term = term;
        this.claimStartedNanos = claimStartedNanos;
        this.slotMs = slotMs;
        this.rerun = rerun;
        this.superseded = superseded;
        this.previousSlotMs = previousSlotMs;
        this.lastRenewedNanos = claimStartedNanos;
    }

    /** The name held. */
    public String name() {
        return name;
    }

    /** The token minted for this claim; never reused. */
    public String holder() {
        return holder;
    }

    /** The process that claimed, as written to the row. */
    public String instance() {
        return instance;
    }

    /**
     * The term this claim started: the number the world outside the database can refuse stale
     * holders by. It grows every time the name changes hands.
     */
    public long term() {
        return term;
    }

    /** The instant this handle was claimed for: only a handle of an instant claim has one. */
    public Optional<Instant> slot() {
        return slotMs == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(slotMs));
    }

    /** True for a handle of {@link InstantSlots#claimRerun}: the instant's second round. */
    public boolean rerun() {
        return rerun;
    }

    /**
     * The instant this claim gave up, if it gave one up: the instant claimed before under the name,
     * whose round had not run to its end (cut short, and not run a second time yet, or cut short the
     * second time too) and that never runs now. Only a handle of {@link InstantSlots#claimSlot} gives one
     * up.
     */
    public Optional<Unfinished> superseded() {
        return Optional.ofNullable(superseded);
    }

    /**
     * The last instant on record under the name when this claim read it: the last instant claimed
     * before, or the last one a round that ran to its end took along. The instants of the schedule
     * strictly between it and {@link #slot()} were never claimed (a claim of one would have moved the
     * record past it) and never can be now, since this claim moved the record past them: a caller
     * that says nothing of them loses them without a trace. Empty for a name claimed for the first
     * time; only a handle of {@link InstantSlots#claimSlot} has one.
     */
    public Optional<Instant> previousSlot() {
        return previousSlotMs == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(previousSlotMs));
    }

    /**
     * Whether the lease is known lost: a renewal found it gone, or none succeeded before the local
     * deadline, whether or not the work's scope had already ended for another reason. Only
     * {@link Leases#hold} learns of a loss, so a handle never held is never lost.
     */
    public boolean lost() {
        return lost.isDone();
    }

    /**
     * What found the lease lost, once it is known lost (see {@link #lost()}): a renewal that found it
     * gone, or the local deadline passing. Empty while it is not known lost. The loss stays the loss
     * even when the work's scope had already ended for another reason, such as a shutdown, so that a
     * round winding down from a shutdown and then losing its lease can say which it was.
     */
    public Optional<LeaseLostException> loss() {
        return Optional.ofNullable(lost.getNow(null));
    }

    /**
     * Extends the lease by the lease duration from the database's now.
     *
     * @throws LeaseLostException the lease expired (taken by someone else since, or not yet) or was
     *     released
     * @throws LeaseDatabaseException the database did not answer; not a loss yet
     */
    public void renew() {
        if (store.renew(name, holder) == 0) {
            throw new LeaseLostException("lease " + name + " (term " + term + ") is gone: expired or released");
        }
    }

    /**
     * Gives the name up at once, so the next claimant need not wait for the expiry. A round cut short
     * ends this way, which leaves its instant unfinished for a rerun.
     *
     * @throws LeaseLostException the lease was already gone; the work it protected is done either
     *     way, so a caller logs it and moves on
     */
    public void release() {
        if (store.release(name, holder) == 0) {
            throw new LeaseLostException("lease " + name + " (term " + term + ") was already gone at release");
        }
    }

    /**
     * Records that the round for this handle's instant ran to its end, so the instant never runs
     * again, and gives the name back as {@link #release()} does.
     *
     * <p>{@code passed} is the last instant of the round's schedule to have come by the time the
     * round ended. When it is later than the instant on record, the round overran the instants up to
     * it; none of them was claimed (the round's lease refused every claim), and the record takes
     * {@code passed} along so they stay skipped and every later claim of them is refused, a start-up
     * catch-up included. An instant the database clock has yet to reach is not taken along, so a
     * caller whose clock runs ahead cannot skip an instant the other replicas are still to claim.
     *
     * <p>When the name is no longer this holder's, the end is recorded all the same (unless a later
     * instant was claimed since) without taking {@code passed} along, since other replicas may have
     * claimed meanwhile. A handle known {@link #lost()} goes straight to that: it does not try to give
     * the name back, and returns normally, since its holder already knows the name is not its own.
     * Otherwise a {@link LeaseLostException} says the name turned out not to be this holder's and was
     * not given back.
     *
     * @throws IllegalStateException the handle is not of an instant claim
     * @throws LeaseLostException the name was no longer this holder's, and the handle was not known lost
     */
    public void finish(Instant passed) {
        if (slotMs == 0) {
            throw new IllegalStateException("lease " + name + " was not claimed for an instant: nothing to finish");
        }
        if (lost()) {
            store.finishWithoutLease(name, slotMs);
            return;
        }
        if (store.finish(name, holder, passed.toEpochMilli()) == 1) {
            return;
        }
        store.finishWithoutLease(name, slotMs);
        throw new LeaseLostException("lease " + name + " (term " + term + ") was lost meanwhile; "
                + "the round's end is recorded, the name was not given back");
    }

    long claimStartedNanos() {
        return claimStartedNanos;
    }

    HistoryClaim historyRow() {
        return historyRow;
    }

    void historyRow(HistoryClaim row) {
        historyRow = row;
    }

    long lastRenewedNanos() {
        return lastRenewedNanos;
    }

    void renewedAt(long startNanos) {
        lastRenewedNanos = startNanos;
    }

    /**
     * Whether {@code localDeadline} has passed since the last good renewal started: the lease counts
     * as lost from then on, whether or not the renewal thread has run since to say so (a process just
     * resumed from a pause runs its work and its renewal thread in no particular order).
     */
    boolean pastLocalDeadline(Duration localDeadline) {
        return System.nanoTime() - lastRenewedNanos >= localDeadline.toNanos();
    }

    void markLost(LeaseLostException why) {
        lost.complete(why);
    }

    CompletableFuture<LeaseLostException> whenLost() {
        return lost;
    }

    @Override
    public String toString() {
        return "Handle[" + name + ", term " + term + ", holder " + holder
                + (slotMs == 0 ? "" : ", slot " + Instant.ofEpochMilli(slotMs)) + (rerun ? ", rerun" : "") + "]";
    }
}
