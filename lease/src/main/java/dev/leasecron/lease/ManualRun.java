package dev.leasecron.lease;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A run request claimed by this process: the job's lease held for it ({@link #handle()}, renewed and
 * run under like any round's, see {@link Leases#hold} and {@link Leases#run}) and the request marked
 * running under the handle's term. It ends once, with {@link #end}.
 */
public final class ManualRun {
    private final Leases leases;
    private final Handle handle;
    private final RunRequest request;
    private final long previousSlotMs;
    private final Instant claimedAt;

    ManualRun(Leases leases, Handle handle, RunRequest request, long previousSlotMs, Instant claimedAt) {
        this.leases = leases;
        this.handle = handle;
        this.request = request;
        this.previousSlotMs = previousSlotMs;
        this.claimedAt = claimedAt;
    }

    /** The lease held for the round: it has no instant ({@link Handle#slot()} is empty) and is never finished. */
    public Handle handle() {
        return handle;
    }

    /** The request, running under {@link #handle()}'s term on this process. */
    public RunRequest request() {
        return request;
    }

    /** The last instant on record under the job's name when the claim read it; empty if none ever was. */
    public Optional<Instant> previousSlot() {
        return previousSlotMs == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(previousSlotMs));
    }

    /** When the lease was claimed, by the database clock. */
    public Instant claimedAt() {
        return claimedAt;
    }

    /**
     * Records the round's end: gives the lease back and marks the request ended with {@code end}'s
     * outcome, in one transaction, then completes its history row.
     *
     * <p>The job's instants that came while the round held the lease were refused everywhere. The
     * release takes along the latest of them as the last instant on record, so they stay skipped
     * (never claimed late), as the finish of a round that overran takes its instants along: the later
     * of {@code next} and {@code passed} that the database clock has reached, if it is later than the
     * instant on record. Two candidates, since the caller's estimate of the clock trails the database's
     * own: an instant that comes between the estimate and the release is taken along all the same.
     *
     * <p>A handle known {@linkplain Handle#lost() lost} gives nothing back and takes nothing along:
     * the request alone is marked.
     *
     * @param passed the last instant of the job's schedule that had come by the caller's estimate, if any
     * @param next the instant after {@code passed} (or the first to come), if any
     * @return the last instant on record after the release; empty when the handle was known lost
     * @throws LeaseLostException the lease was no longer this holder's: nothing taken along, the
     *     request is marked ended all the same
     * @throws LeaseDatabaseException the database did not answer: the lease expires on its own, and the
     *     request is then marked {@code cut_short} by the next replica to look
     */
    public Optional<Instant> end(RoundEnd end, Optional<Instant> passed, Optional<Instant> next) {
        Objects.requireNonNull(end, "end");
        boolean withLease = !handle.lost();
        Optional<Long> slot = leases.store().controls().endManual(request.id(), handle.name(), handle.holder(), handle.term(),
                withLease, passed.map(Instant::toEpochMilli).orElse(0L), next.map(Instant::toEpochMilli).orElse(0L),
                end.outcome().label());
        ManualRounds.completeHistory(leases, request, end);
        if (withLease && slot.isEmpty()) {
            throw new LeaseLostException("lease " + handle.name() + " (term " + handle.term()
                    + ") was lost meanwhile; the manual round's end is recorded, the name was not given back");
        }
        return slot.filter(ms -> ms != 0).map(Instant::ofEpochMilli);
    }

    @Override
    public String toString() {
        return "ManualRun[" + request.id() + ", " + handle + "]";
    }
}
