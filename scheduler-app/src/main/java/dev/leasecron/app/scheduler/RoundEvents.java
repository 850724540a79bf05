package dev.leasecron.app.scheduler;

import static dev.leasecron.app.logging.Events.*;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryTrigger;
import dev.leasecron.lease.Suspension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Everything the scheduler tells about instants and rounds, written in one place: the log entries
 * (one JSON object per line, the event name in {@code event}) and the {@link RoundListener} that
 * counts them, so that a round of every replica and a claimed one log the same fields at the same
 * levels, and a log line and its metric never disagree.
 */
final class RoundEvents {
    static final Logger LOG = LoggerFactory.getLogger("leasecron.scheduler");

    private final RoundListener listener;
    private final SpanHistory history;

    RoundEvents(RoundListener listener) {
        this(listener, SpanHistory.NONE);
    }

    /** @param history where the instants not run are recorded, once each, as they are logged */
    RoundEvents(RoundListener listener, SpanHistory history) {
        this.listener = listener;
        this.history = history;
    }

    void claimed(ScheduledJob job, boolean won) {
        listener.claimed(job, won);
    }

    void started(Round round, Duration fireDelay, Optional<Instant> lastOnRecord) {
        if (round.trigger() != HistoryTrigger.MANUAL) {
            // A manual round's delay is its wait for a replica and for the job's lease, not an instant
            // fired late: counted, it would set off the alerts on late rounds.
            listener.started(round.job(), round.rerun(), fireDelay);
        }
        round(Level.INFO, ROUND_START, round)
                .addKeyValue("fire_delay_ms", fireDelay.toMillis())
                .addKeyValue("last_on_record", () -> lastOnRecord.map(Instant::toString).orElse(null))
                .log("round.start job={} instant={} term={}{}{}", round.job().name(), round.instant(), round.term(),
                        round.rerun() ? " rerun" : "", round.requestedBy().isEmpty() ? ""
                                : " manual requested_by=" + round.requestedBy());
    }

    /**
     * The round's end. {@code took} runs to the end recorded; {@code worked} only to when the job's
     * work returned. A failure's stack is logged when an unchecked exception or an error is among its
     * causes, a bug rather than a failure the job reports (an exit code, an HTTP status), whose message
     * says it all; at DEBUG, always.
     */
    void ended(Round round, Outcome outcome, Duration took, Duration worked, String reason, Throwable error) {
        listener.ended(round.job(), round.rerun(), outcome, took);
        Level level = switch (outcome) {
            case OK -> Level.INFO;
            case CUT_SHORT, TIMEOUT -> Level.WARN;
            case FAILED -> Level.ERROR;
        };
        LoggingEventBuilder entry = round(level, ROUND_END, round)
                .addKeyValue("outcome", outcome.label())
                .addKeyValue("duration_ms", took.toMillis())
                .addKeyValue("work_ms", worked.toMillis())
                .addKeyValue("error", reason);
        if (outcome == Outcome.FAILED && error != null) {
            entry = entry.addKeyValue("error_type", error.getClass().getName());
            if (isBug(error) || LOG.isDebugEnabled()) {
                entry = entry.setCause(error);
            }
        }
        entry.log("round.end job={} instant={} outcome={} duration_ms={}{}{}", round.job().name(), round.instant(),
                outcome.label(), took.toMillis(), round.trigger() == HistoryTrigger.MANUAL ? " manual" : "",
                reason == null ? "" : " error=" + reason);
    }

    /** Whether an unchecked exception or an error is among {@code error} and its causes. */
    private static boolean isBug(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RuntimeException || t instanceof Error) {
                return true;
            }
        }
        return false;
    }

    void superseded(ScheduledJob job, Instant given, boolean rerun, Instant by) {
        listener.superseded(job);
        history.record(job, given, given, 1, HistoryOutcome.SUPERSEDED, "cut short and given up for " + by
                + (rerun ? " (its rerun was cut short too)" : ": no rerun came before it"));
        event(Level.WARN, INSTANT_SUPERSEDED, job)
                .addKeyValue("instant", given.toString())
                .addKeyValue("rerun", rerun)
                .addKeyValue("superseded_by", by.toString())
                .log("instant {} of {} was cut short and is given up for {}: it never runs again", given, job.name(), by);
    }

    /**
     * An instant of a suspended job left alone: finished at once by the replica that claimed it (its
     * history row says {@code suspended}), or, for a job of every replica, not run here. {@code along}:
     * the instants a late claim took along, suspended with it and recorded as a span of their own.
     */
    void suspended(ScheduledJob job, Instant instant, long term, Suspension suspension,
            Optional<InstantSpan> along) {
        listener.suspended(job, 1 + along.map(InstantSpan::count).orElse(0L));
        along.ifPresent(span -> history.record(job, span, HistoryOutcome.SUSPENDED, SuspendedInstants.reason(suspension)));
        event(Level.INFO, INSTANT_SUSPENDED, job)
                .addKeyValue("instant", instant.toString())
                .addKeyValue("term", term)
                .addKeyValue("suspended_by", suspension.by())
                .addKeyValue("reason", suspension.reason())
                .addKeyValue("since", suspension.since().toString())
                .addKeyValue("taken_along", along.map(InstantSpan::count).orElse(0L))
                .log("instant {} of {} not run: the job is suspended (by {}{})", instant, job.name(), suspension.by(),
                        suspension.reason().isBlank() ? "" : ": " + suspension.reason());
    }

    void skipped(ScheduledJob job, InstantSpan span, Optional<Instant> next) {
        skipped(job, span, next, "a round of the job overran them");
    }

    /** Instants not run, and now never run, because a round of the job held its lease: {@code why} says which. */
    void skipped(ScheduledJob job, InstantSpan span, Optional<Instant> next, String why) {
        listener.skipped(job, span.count());
        history.record(job, span, HistoryOutcome.SKIPPED, why);
        event(Level.WARN, INSTANT_SKIPPED, job)
                .addKeyValue("count", span.count())
                .addKeyValue("first", span.first().toString())
                .addKeyValue("last", span.last().toString())
                .addKeyValue("next_instant", next.map(Instant::toString).orElse(null))
                .addKeyValue("reason", why)
                .log("round of {} overran {} instant(s) from {} to {}: skipped; next instant {}", job.name(),
                        span.countText(), span.first(), span.last(), next.map(Instant::toString).orElse("none"));
    }

    void missed(ScheduledJob job, InstantSpan span, Instant lastOnRecord, String reason) {
        listener.missed(job, span.count());
        history.record(job, span, HistoryOutcome.MISSED, reason);
        event(Level.WARN, INSTANT_MISSED, job)
                .addKeyValue("first", span.first().toString())
                .addKeyValue("last", span.last().toString())
                .addKeyValue("count", span.count())
                .addKeyValue("last_on_record", lastOnRecord.toString())
                .addKeyValue("reason", reason)
                .log("{} instant(s) of {} from {} to {} ran on no replica and never will: {}", span.countText(),
                        job.name(), span.first(), span.last(), reason);
    }

    void unclaimed(ScheduledJob job, InstantSpan span, String error) {
        listener.missed(job, span.count());
        history.record(job, span, HistoryOutcome.MISSED, "could not be claimed: the database did not answer: " + error);
        event(Level.ERROR, INSTANT_UNCLAIMED, job)
                .addKeyValue("instant", span.first().toString())
                .addKeyValue("last", span.last().toString())
                .addKeyValue("count", span.count())
                .addKeyValue("error", error)
                .log("{} instant(s) of {} from {} to {} could not be claimed before the next one came: the database did"
                        + " not answer: {}", span.countText(), job.name(), span.first(), span.last(), error);
    }

    void claimFailed(ScheduledJob job, Instant instant, Duration retry, String error) {
        event(Level.WARN, CLAIM_FAILED, job)
                .addKeyValue("instant", instant.toString())
                .addKeyValue("error", error)
                .log("claim of {} for {} failed, trying again in {}: {}", job.name(), instant, retry, error);
    }

    void caughtUp(ScheduledJob job, Instant instant, Instant lastOnRecord) {
        event(Level.INFO, INSTANT_CAUGHT_UP, job)
                .addKeyValue("instant", instant.toString())
                .addKeyValue("last_on_record", lastOnRecord.toString())
                .log("catching up {} of {}: the most recent instant no replica ran", instant, job.name());
    }

    void caughtUpOnResume(ScheduledJob job, Instant instant) {
        event(Level.INFO, INSTANT_CAUGHT_UP, job)
                .addKeyValue("instant", instant.toString())
                .addKeyValue("on_resume", true)
                .log("catching up {} of {} on its resume: the latest instant, suspended", instant, job.name());
    }

    void overrun(ScheduledJob job, Instant instant, Instant next) {
        event(Level.WARN, ROUND_OVERRUN, job)
                .addKeyValue("instant", instant.toString())
                .addKeyValue("next_instant", next.toString())
                .log("round of {} for {} still runs at its next instant {}; instants it overruns are skipped",
                        job.name(), instant, next);
    }

    void leaseLost(ScheduledJob job, long term, String why) {
        event(Level.WARN, LEASE_LOST, job).addKeyValue("term", term)
                .log("round of {} ended after its lease was lost: {}", job.name(), why);
    }

    void finishFailed(ScheduledJob job, long term, String error) {
        event(Level.ERROR, ROUND_FINISH_FAILED, job).addKeyValue("term", term).addKeyValue("error", error)
                .log("could not record the end of the round of {}: unless the statement landed with only its answer "
                        + "lost, the lease expires on its own and the instant runs again like a crashed round's: {}",
                        job.name(), error);
    }

    void releaseFailed(ScheduledJob job, long term, String error) {
        event(Level.WARN, ROUND_RELEASE_FAILED, job).addKeyValue("term", term)
                .log("could not give back the lease of {}: it expires on its own: {}", job.name(), error);
    }

    void exhausted(ScheduledJob job) {
        event(Level.WARN, SCHEDULE_EXHAUSTED, job).log("schedule of {} has no further instant: the job stops", job.name());
    }

    void crashed(ScheduledJob job, RuntimeException e) {
        event(Level.ERROR, JOB_CRASHED, job).setCause(e).log("scheduling of {} stopped: {}", job.name(), e.toString());
    }

    void unavailable(ScheduledJob job, String what, Duration retry, String error) {
        event(Level.WARN, DATABASE_UNAVAILABLE, job)
                .log("could not {} of {}, trying again in {}: {}", what, job.name(), retry, error);
    }

    private static LoggingEventBuilder event(Level level, String event, ScheduledJob job) {
        return LOG.atLevel(level).addKeyValue("event", event).addKeyValue("job", job.name());
    }

    private static LoggingEventBuilder round(Level level, String event, Round round) {
        return event(level, event, round.job())
                .addKeyValue("instant", round.instant()::toString) // formatted only when the level is on
                .addKeyValue("term", round.term())
                .addKeyValue("holder", round.holder())
                .addKeyValue("instance", round.instance())
                .addKeyValue("rerun", round.rerun())
                .addKeyValue("trigger", round.trigger().label())
                .addKeyValue("requested_by", round.requestedBy().isEmpty() ? null : round.requestedBy());
    }
}
