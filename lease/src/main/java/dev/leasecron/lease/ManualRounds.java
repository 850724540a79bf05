package dev.leasecron.lease;

import dev.leasecron.lease.sql.HistoryClaim;
import dev.leasecron.lease.sql.HistoryCompletion;
import dev.leasecron.lease.sql.LeaseStore;
import dev.leasecron.lease.sql.ManualClaim;
import dev.leasecron.lease.sql.OpenRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The replicas' side of the requests to run a job now ({@link JobControls#requestRun}): finding the
 * pending ones, and claiming a job's lease for one. Reached through {@link Leases#manualRounds()}.
 *
 * <p>What it promises:
 * <ul>
 *   <li>A request runs at most once: the claim of the job's lease and the request's move from pending
 *       to running are one transaction, conditional on both (the lease free, the request still
 *       pending), so of replicas racing for a request one claim commits and the others write nothing.
 *   <li>A manual round holds the job's lease like any round: while it runs no instant of the job is
 *       claimed, and it is never claimed while a round of an instant holds the lease, nor while an
 *       instant cut short waits there for its rerun, which comes first.
 *   <li>A manual round is no instant: its claim leaves the instants on record as they are, and its end
 *       ({@link ManualRun#end}) takes along the instants that came while it held the lease, as an
 *       overrunning round's finish does, so they are skipped and on record, never claimed late.
 *   <li>A request whose round's replica stopped or lost the lease without recording the end is marked
 *       ended {@link HistoryOutcome#CUT_SHORT} by the next replica that looks after the lease has
 *       expired; it is not run again (a new request is).
 * </ul>
 */
public final class ManualRounds {
    /** What the row of a manual round whose replica stopped says. */
    static final String ABANDONED = "its replica stopped (or lost the lease) before the manual round ended";

    private final Leases leases;

    ManualRounds(Leases leases) {
        this.leases = leases;
    }

    /**
     * The pending requests of {@code names} whose job's lease is free to claim for them now, oldest
     * first, at most one per name. The requests found running under a lease that is no longer held
     * are marked ended {@code cut_short} on the way (see the class documentation). One statement per
     * {@link Leases#MAX_BATCH} names, and two more per request so settled.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public List<RunRequest> claimable(Collection<String> names) {
        List<RunRequest> free = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        LeaseStore s = leases.store();
        for (List<String> chunk : Batches.chunks(names, Comparator.naturalOrder())) {
            for (OpenRequest open : s.controls().openRunRequests(chunk)) {
                RunRequest r = open.request();
                if (r.state() == RunRequestState.RUNNING && !open.leaseLive()) {
                    abandoned(r);
                } else if (r.state() == RunRequestState.PENDING && open.leaseFree() && taken.add(r.name())) {
                    free.add(r);
                }
            }
        }
        return free;
    }

    /**
     * Claims the job's lease for {@code request} and marks it running, in one transaction.
     *
     * @return the manual round to run under the lease; empty when the lease is held (or waits for a
     *     rerun) or the request is no longer pending: another replica took it, or it ended
     * @throws LeaseDatabaseException the database did not answer
     */
    public Optional<ManualRun> claim(RunRequest request) {
        LeaseName.validate(request.name());
        String holder = Tokens.newHolder();
        long started = System.nanoTime();
        Optional<ManualClaim> claimed = leases.store().controls().claimForRequest(request.id(), request.name(), holder, leases.instance());
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        ManualClaim c = claimed.get();
        leases.clock().observe(c.nowMs(), System.nanoTime());
        Handle handle = leases.handle(request.name(), holder, c.term(), started, 0, false, null, 0);
        RunRequest running = new RunRequest(request.id(), request.name(), request.requestedBy(), request.requestedAt(),
                RunRequestState.RUNNING, Optional.of(leases.instance()), c.term(), Optional.of(HistoryOutcome.RUNNING));
        if (leases.history().enabled()) {
            quietly(() -> leases.store().history().insertManual(request.name(), request.requestedAt().toEpochMilli(),
                    c.term(), holder, leases.instance(), request.requestedBy()));
        }
        return Optional.of(new ManualRun(leases, handle, running, c.slotMs(), Instant.ofEpochMilli(c.nowMs())));
    }

    private void abandoned(RunRequest r) {
        if (leases.store().controls().markRequestEnded(r.id(), r.term(), HistoryOutcome.CUT_SHORT.label()) == 1) {
            completeHistory(leases, r, new RoundEnd(HistoryOutcome.CUT_SHORT, ABANDONED));
        }
    }

    /** Completes the history row of {@code r}'s round as {@code end} tells; a failure goes to the listener. */
    static void completeHistory(Leases leases, RunRequest r, RoundEnd end) {
        if (!leases.history().enabled()) {
            return;
        }
        try {
            // The row was written with the claim, in its transaction: only the end is new here.
            HistoryClaim row = new HistoryClaim(r.name(), r.requestedAt().toEpochMilli(), r.term(), "",
                    r.instance().orElse(""), HistoryTrigger.MANUAL.label(), false, 0);
            leases.store().history().complete(List.of(new HistoryCompletion(row, end.outcome().label(), end.detail())));
        } catch (LeaseDatabaseException e) {
            leases.historyFailed(e);
        }
    }

    private void quietly(Runnable write) {
        try {
            write.run();
        } catch (LeaseDatabaseException e) {
            leases.historyFailed(e);
        }
    }
}
