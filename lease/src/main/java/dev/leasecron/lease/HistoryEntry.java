package dev.leasecron.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One row of the round history: a round that ran or runs ({@link HistoryOutcome#ran()}), or a span of
 * consecutive instants of one name that did not run. Times are the database clock's.
 *
 * @param name the lease name ({@code cron:JOB} for the scheduler's jobs)
 * @param instant the round's instant, or the first of the span
 * @param lastInstant the round's instant again, or the last of the span
 * @param instants 1 for a round, else how many instants the span holds
 * @param outcome what became of it
 * @param trigger why the round ran; empty for a span not run
 * @param term the lease term of the round; 0 for a span
 * @param holder the claim's token; empty for a span
 * @param instance the replica that ran it, or that recorded the span
 * @param rerun whether the round ran its instant a second time
 * @param requestedBy who asked for a manual round; empty otherwise
 * @param started when the round started; empty for a span
 * @param ended when it ended; empty while running, for a round whose replica died, and for a span
 * @param fireDelay how late the round started after its instant
 * @param duration how long it ran; empty until it ended
 * @param detail the error of a round that failed, timed out or was cut short, or the reason of a span;
 *     empty when none; bounded to a few KiB
 */
public record HistoryEntry(
        String name,
        Instant instant,
        Instant lastInstant,
        long instants,
        HistoryOutcome outcome,
        Optional<HistoryTrigger> trigger,
        long term,
        String holder,
        String instance,
        boolean rerun,
        String requestedBy,
        Optional<Instant> started,
        Optional<Instant> ended,
        Optional<Duration> fireDelay,
        Optional<Duration> duration,
        String detail) {}
