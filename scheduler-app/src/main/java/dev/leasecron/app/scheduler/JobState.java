package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import java.time.Instant;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One job in the {@link Dispatcher}'s table: the instant it waits for, when that instant's claim (or
 * round, for a job of every replica) goes out, and how its last claim went. While it waits, the
 * dispatcher's lock guards it; once taken out of the table, it belongs to whoever took it (the claim
 * sender, then the round), until it is queued again.
 */
final class JobState {
    /**
     * Earliest first; for the same moment the earlier instant first, then the job added first. Written
     * out rather than chained from key extractors: thousands of jobs due at one moment are ordered on
     * the dispatcher's thread before their claim goes out (4 % of the CPU at 2,000 jobs a second).
     */
    static final Comparator<JobState> BY_DUE = (a, b) -> {
        int byDue = a.dueAt.compareTo(b.dueAt);
        if (byDue != 0) {
            return byDue;
        }
        int bySlot = a.slot.compareTo(b.slot);
        return bySlot != 0 ? bySlot : Long.compare(a.order, b.order);
    };

    /** How this replica's last claim of the job went. */
    enum LastClaim { NONE, WON, REFUSED }

    /** How many logged spans are kept: the passed-over instants a claim finds lie near the latest. */
    private static final int MAX_SPANS = 32;

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
    /**
     * The spans of instants logged missed or unclaimed lately, first to last, so that none is logged
     * twice while every one passed over is logged once, in whatever order they are found.
     */
    private final TreeMap<Instant, Instant> logged = new TreeMap<>();

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
    record Unclaimed(List<InstantSpan> spans, String error) {}

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
                : Optional.of(new Unclaimed(unlogged(slot.minusNanos(1), latest.minusNanos(1)), failure.getMessage()));
        failure = null;
        catchUp = false;
        slot = latest;
        return unclaimed;
    }

    /**
     * The instants after {@code after} up to {@code last} not logged missed or unclaimed yet, in
     * spans, now taken as logged; empty when none is left.
     */
    List<InstantSpan> unlogged(Instant after, Instant last) {
        List<InstantSpan> found = new ArrayList<>();
        Instant from = after;
        for (Map.Entry<Instant, Instant> span : logged.entrySet()) {
            if (span.getKey().isAfter(last)) {
                break;
            }
            if (span.getValue().isAfter(from)) {
                InstantSpan.of(job.instants(), from, span.getKey().minusNanos(1)).ifPresent(found::add);
                from = span.getValue();
            }
        }
        InstantSpan.of(job.instants(), from, last).ifPresent(found::add);
        found.forEach(span -> logged.put(span.first(), span.last()));
        while (logged.size() > MAX_SPANS) {
            logged.pollFirstEntry();
        }
        return found;
    }

}
