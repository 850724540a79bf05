package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.Unfinished;
import dev.leasecron.lease.UnfinishedSlots;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Twice per retry interval, one statement finds the instants of all this replica's jobs whose round was
 * cut short and that are free to claim again; each found is claimed again, and the replica that wins
 * runs it as a rerun on a thread of its own, so one long rerun holds up neither the sweep nor the
 * job's own instants.
 *
 * <p>The same statement tells when a lease still holding such an instant expires, if that is before
 * the look after next, and the sweep looks again at that moment. A holder killed before its first
 * renewal leaves a lease that expires one lease duration after its claim, which for a job whose period
 * divides that duration is one of the job's own instants: looking only on its cadence, the sweep came
 * after the claim of that instant, which gave the cut-short one up for good (it is superseded). The
 * looks on the cadence stay: a lease released by a shutdown, or one that expired while this replica
 * was not looking, is found by them.
 */
final class RerunSweep {
    private final Leases leases;
    private final RoundRunner rounds;
    private final InFlight inFlight;
    private final Supplier<Map<String, ScheduledJob>> jobsByLeaseName;
    private final LeaseScope scope;
    private final int sweepsPerRetryInterval;

    /**
     * @param sweepsPerRetryInterval a replica shutting down gives the leases of the rounds it cuts
     *     short back at once: sweeping twice per retry interval (every second by default) reruns them
     *     within about a second of the release. It costs one statement per sweep however many jobs
     *     there are; a crashed replica's rounds wait for their leases to expire either way.
     */
    RerunSweep(Leases leases, RoundRunner rounds, InFlight inFlight, Supplier<Map<String, ScheduledJob>> jobsByLeaseName,
            LeaseScope scope, int sweepsPerRetryInterval) {
        this.sweepsPerRetryInterval = sweepsPerRetryInterval;
        this.leases = leases;
        this.rounds = rounds;
        this.inFlight = inFlight;
        this.jobsByLeaseName = jobsByLeaseName;
        this.scope = scope;
    }

    void run() {
        try {
            Duration every = leases.retryInterval().dividedBy(sweepsPerRetryInterval);
            // Twice the cadence: an expiry just past the next look is still known at this one.
            Duration lookAhead = every.multipliedBy(2);
            Duration wait = every;
            while (!scope.await(wait)) {
                wait = sweepOnce(every, lookAhead);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One sweep.
     *
     * @return how long until the next: {@code every}, or less when a lease holding an unfinished
     *     instant expires sooner; the retry interval when the database did not answer, which is
     *     tried again at the protocol's own cadence, not sooner
     */
    private Duration sweepOnce(Duration every, Duration lookAhead) {
        Map<String, ScheduledJob> jobs = jobsByLeaseName.get();
        if (jobs.isEmpty()) {
            return every;
        }
        try {
            UnfinishedSlots found = leases.slots().unfinishedSlots(jobs.keySet(), lookAhead);
            for (Unfinished free : found.free()) {
                // Once claimed a second time, an instant cut short again never runs: claim only what will run.
                if (!inFlight.claimAndStart(scope, "rerun " + free.name(), () -> leases.slots().claimRerun(free),
                        h -> rounds.run(jobs.get(free.name()), h))) {
                    return every;
                }
            }
            // Counted from the statement's return, so the next look cannot come before the expiry.
            return found.nextExpiry().filter(expiry -> expiry.compareTo(every) < 0).orElse(every);
        } catch (RuntimeException e) {
            // A database that does not answer, or a bug: either way the sweep goes on, or no rerun would run again.
            SchedulerEvents.sweepFailed(leases.retryInterval(), String.valueOf(e.getMessage()));
            return leases.retryInterval();
        }
    }
}
