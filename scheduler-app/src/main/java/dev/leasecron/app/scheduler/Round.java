package dev.leasecron.app.scheduler;

import dev.leasecron.lease.Handle;
import java.time.Instant;

/**
 * Which round a log entry is about: the fields {@code round.start} and {@code round.end} carry.
 *
 * @param job the job
 * @param instant the instant it runs for
 * @param term the lease term; 0 for a round of every replica, which has no lease
 * @param holder the claim's token; empty without a lease
 * @param instance the replica running it
 * @param rerun whether it runs the instant a second time
 */
record Round(ScheduledJob job, Instant instant, long term, String holder, String instance, boolean rerun) {

    /** The round of a claimed instant. */
    static Round of(ScheduledJob job, Handle handle) {
        return new Round(job, handle.slot().orElseThrow(), handle.term(), handle.holder(), handle.instance(), handle.rerun());
    }

    /** A round of a job of every replica: no lease, no term. */
    static Round local(ScheduledJob job, Instant instant, String instance) {
        return new Round(job, instant, 0, "", instance, false);
    }
}
