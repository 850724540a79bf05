package dev.leasecron.app.scheduler;

import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryQuery;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The catch-up of a resumed job: when a job of {@code catchUp: latest} is resumed and the last
 * instant on record under its lease is one recorded {@code suspended}, recent enough by the catch-up's
 * window (24 h, as at start), that instant runs once, late, before the job goes on with its next
 * instant. Every replica that sees the resume asks; the claim of the last instant a second time
 * ({@link dev.leasecron.lease.InstantSlots#claimLastAgain}) lets one of them have it, once. A job's
 * next instant claimed first wins instead: it is later, and the latest is what a catch-up runs.
 *
 * <p>The round history tells a suspended instant from one that ran, so without the history
 * ({@code history.enabled: false}) nothing is caught up on resume.
 */
final class ResumeCatchUp {
    private final Leases leases;
    private final RoundRunner rounds;
    private final InFlight inFlight;
    private final Supplier<Map<String, ScheduledJob>> jobsByLeaseName;
    private final Duration window;
    private final LeaseScope scope;
    private final RoundEvents events;

    ResumeCatchUp(Leases leases, RoundRunner rounds, InFlight inFlight,
            Supplier<Map<String, ScheduledJob>> jobsByLeaseName, Duration window, LeaseScope scope, RoundEvents events) {
        this.leases = leases;
        this.rounds = rounds;
        this.inFlight = inFlight;
        this.jobsByLeaseName = jobsByLeaseName;
        this.window = window;
        this.scope = scope;
        this.events = events;
    }

    /** The jobs under {@code leaseNames} were resumed: each asking for it is caught up on a thread of its own. */
    void resumed(Collection<String> leaseNames) {
        Map<String, ScheduledJob> jobs = jobsByLeaseName.get();
        for (String name : leaseNames) {
            ScheduledJob job = jobs.get(name);
            if (job != null && job.catchUpLatest() && leases.history().enabled()) {
                Thread.ofVirtual().name("resume " + job.name()).start(() -> catchUp(job));
            }
        }
    }

    private void catchUp(ScheduledJob job) {
        try {
            Optional<Instant> last = leases.slots().lastSlot(job.leaseName());
            if (last.isEmpty() || scope.isCancelled()) {
                return;
            }
            Instant instant = last.get();
            if (instant.isBefore(leases.readDatabaseClock().minus(window)) || !recordedSuspended(job, instant)) {
                return;
            }
            inFlight.claimAndStart(scope, "resume " + job.name(),
                    () -> leases.slots().claimLastAgain(job.leaseName(), instant), claimed -> {
                        events.caughtUpOnResume(job, instant);
                        rounds.run(job, claimed);
                    });
        } catch (LeaseDatabaseException e) {
            // Not tried again: the job's next instant runs as usual, and the suspended one stays on record.
            events.unavailable(job, "catch up the latest suspended instant", leases.retryInterval(), e.getMessage());
        }
    }

    /** Whether {@code instant} is on record as suspended: the newest suspended row holds it. */
    private boolean recordedSuspended(ScheduledJob job, Instant instant) {
        return leases.history().entries(new HistoryQuery(Set.of(job.leaseName()), Set.of(HistoryOutcome.SUSPENDED),
                        Optional.empty(), 1)).stream()
                .anyMatch(e -> !e.instant().isAfter(instant) && !e.lastInstant().isBefore(instant));
    }
}
