package dev.leasecron.app.scheduler;

import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.Unfinished;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.event.Level;

/**
 * Twice per retry interval, one statement finds the instants of all this replica's jobs whose round was
 * cut short and that are free to claim again; each found is claimed again, and the replica that wins
 * runs it as a rerun on a thread of its own, so one long rerun holds up neither the sweep nor the
 * job's own instants.
 */
final class RerunSweep {
    /**
     * A replica shutting down gives the leases of the rounds it cuts short back at once: sweeping
     * twice per retry interval (every second by default) reruns them within about a second of the
     * release, where a sweep per interval took up to two. It costs one statement per second however
     * many jobs there are; a crashed replica's rounds wait for their leases to expire either way.
     */
    private static final int SWEEPS_PER_RETRY_INTERVAL = 2;

    private final Leases leases;
    private final RoundRunner rounds;
    private final Supplier<Map<String, ScheduledJob>> jobsByLeaseName;
    private final LeaseScope scope;

    RerunSweep(Leases leases, RoundRunner rounds, Supplier<Map<String, ScheduledJob>> jobsByLeaseName, LeaseScope scope) {
        this.leases = leases;
        this.rounds = rounds;
        this.jobsByLeaseName = jobsByLeaseName;
        this.scope = scope;
    }

    void run() {
        try {
            Duration every = leases.retryInterval().dividedBy(SWEEPS_PER_RETRY_INTERVAL);
            Duration wait = every;
            while (!scope.await(wait)) {
                // A database that did not answer is tried again at the protocol's own cadence, not sooner.
                wait = sweepOnce() ? every : leases.retryInterval();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One sweep; false when the database did not answer. */
    private boolean sweepOnce() {
        Map<String, ScheduledJob> jobs = jobsByLeaseName.get();
        if (jobs.isEmpty()) {
            return true;
        }
        try {
            for (Unfinished found : leases.unfinishedSlots(jobs.keySet())) {
                // Once claimed a second time, an instant cut short again never runs: claim only what will run.
                if (scope.isCancelled()) {
                    return true;
                }
                Optional<Handle> claimed = leases.claimRerun(found);
                claimed.ifPresent(h -> rounds.runInBackground(jobs.get(found.name()), h));
            }
            return true;
        } catch (LeaseDatabaseException e) {
            RoundLog.LOG.atLevel(Level.WARN).addKeyValue("event", "rerun.sweep_failed").addKeyValue("error", e.getMessage())
                    .log("rerun sweep failed, trying again in {}: {}", leases.retryInterval(), e.getMessage());
            return false;
        }
    }
}
