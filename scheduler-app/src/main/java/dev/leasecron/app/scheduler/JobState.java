package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;

/**
 * One job in the {@link Dispatcher}'s table: the instant it waits for, when that instant's claim (or
 * round, for a job of every replica) goes out, and how its last claim went. While it waits, the
 * dispatcher's lock guards it; once taken out of the table, it belongs to whoever took it (the claim
 * sender, then the round), until it is queued again.
 */
final class JobState {
    /** Earliest first; for the same moment the earlier instant first, then the job added first. */
    static final Comparator<JobState> BY_DUE = Comparator.comparing((JobState s) -> s.dueAt)
            .thenComparing(s -> s.slot).thenComparingLong(s -> s.order);

    /** How this replica's last claim of the job went. */
    enum LastClaim { NONE, WON, REFUSED }

    final ScheduledJob job;
    /** Ends when the job stops: removed or changed by a reload, or the replica stops claiming. */
    final LeaseScope scope;
    private final long order;
    /** The instant to claim (or run) next. */
    Instant slot;
    /** When it goes out: the instant, a little later when put off, or when a failed claim is tried again. */
    Instant dueAt;
    /** The slot is the catch-up's: the most recent instant no replica ran, claimed at start. */
    boolean catchUp;
    /** For a catch-up: the last instant on record when it was decided. */
    Instant lastOnRecord;
    /** Why the last try to claim {@link #slot} failed; null when it did not. */
    LeaseDatabaseException failure;
    LastClaim lastClaim = LastClaim.NONE;
    volatile boolean stopped;
    /** The last instant logged missed or unclaimed, so that none is logged twice. */
    private Instant missedLoggedThrough = Instant.EPOCH;

    JobState(ScheduledJob job, LeaseScope scope, long order) {
        this.job = job;
        this.scope = scope;
        this.order = order;
    }

    /** Waits for {@code slot}, going out at {@code dueAt}. */
    void await(Instant slot, Instant dueAt) {
        this.slot = slot;
        this.dueAt = dueAt;
    }

    /** Instants not claimed because the database did not answer, and its last error. */
    record Unclaimed(InstantSpan span, String error) {}

    /**
     * A claim late past the job's following instant claims the latest instant come instead: the ones
     * before it are stale. When the database did not answer for them, they are returned, to be logged
     * unclaimed; else the claim that wins passes over them, and its round logs them missed. A
     * catch-up's instant is in the past by design: it moves on only after a failure.
     */
    Optional<Unclaimed> skipStale(Instant now) {
        if (catchUp && failure == null) {
            return Optional.empty();
        }
        Optional<Instant> following = job.instants().next(slot);
        if (following.isEmpty() || following.get().isAfter(now)) {
            return Optional.empty();
        }
        Instant latest = job.instants().latestAtOrBefore(now).orElseThrow();
        Optional<Unclaimed> unclaimed = failure == null ? Optional.empty()
                : unlogged(slot.minusNanos(1), latest.minusNanos(1)).map(span -> new Unclaimed(span, failure.getMessage()));
        failure = null;
        catchUp = false;
        slot = latest;
        return unclaimed;
    }

    /**
     * The instants after {@code after} up to {@code last} not logged missed yet, now taken as logged;
     * empty when none is left.
     */
    Optional<InstantSpan> unlogged(Instant after, Instant last) {
        Instant from = after.isAfter(missedLoggedThrough) ? after : missedLoggedThrough;
        Optional<InstantSpan> span = InstantSpan.of(job.instants(), from, last);
        span.ifPresent(s -> missedLoggedThrough = s.last());
        return span;
    }
}
