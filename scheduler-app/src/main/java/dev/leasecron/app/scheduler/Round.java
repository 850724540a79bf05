package dev.leasecron.app.scheduler;

import dev.leasecron.lease.Handle;
import dev.leasecron.lease.HistoryTrigger;
import dev.leasecron.lease.ManualRun;
import java.time.Instant;

/**
 * Which round a log entry is about: the fields {@code round.start} and {@code round.end} carry.
 *
 * @param job the job
 * @param instant the instant it runs for; for a manual round, when it was requested
 * @param term the lease term; 0 for a round of every replica, which has no lease
 * @param holder the claim's token; empty without a lease
 * @param instance the replica running it
 * @param rerun whether it runs the instant a second time
 * @param trigger why it runs
 * @param requestedBy who asked for a manual round; empty for the others
 */
record Round(ScheduledJob job, Instant instant, long term, String holder, String instance, boolean rerun,
        HistoryTrigger trigger, String requestedBy) {

    /** The round of a claimed instant: a rerun, or {@code trigger} (scheduled or caught up). */
    static Round of(ScheduledJob job, Handle handle, HistoryTrigger trigger) {
        return new Round(job, handle.slot().orElseThrow(), handle.term(), handle.holder(), handle.instance(), handle.rerun(),
                handle.rerun() ? HistoryTrigger.RERUN : trigger, "");
    }

    /** A round an operator asked for: its instant is the request's. */
    static Round manual(ScheduledJob job, ManualRun run) {
        Handle handle = run.handle();
        return new Round(job, run.request().requestedAt(), handle.term(), handle.holder(), handle.instance(), false,
                HistoryTrigger.MANUAL, run.request().requestedBy());
    }

    /** A round of a job of every replica: no lease, no term. */
    static Round local(ScheduledJob job, Instant instant, String instance) {
        return new Round(job, instant, 0, "", instance, false, HistoryTrigger.SCHEDULED, "");
    }
}
