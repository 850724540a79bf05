package dev.leasecron.app.scheduler;

import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.Unfinished;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.event.Level;

/**
 * Every retry interval, one statement finds the instants of all this replica's jobs whose round was
 * cut short and that are free to claim again; each found is claimed again, and the replica that wins
 * runs it as a rerun on a thread of its own, so one long rerun holds up neither the sweep nor the
 * job's own instants.
 */
final class RerunSweep {
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
            while (!scope.await(leases.retryInterval())) {
                sweepOnce();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void sweepOnce() {
        Map<String, ScheduledJob> jobs = jobsByLeaseName.get();
        if (jobs.isEmpty()) {
            return;
        }
        try {
            for (Unfinished found : leases.unfinishedSlots(jobs.keySet())) {
                // Once claimed a second time, an instant cut short again never runs: claim only what will run.
                if (scope.isCancelled()) {
                    return;
                }
                Optional<Handle> claimed = leases.claimRerun(found);
                claimed.ifPresent(h -> rounds.runInBackground(jobs.get(found.name()), h));
            }
        } catch (LeaseDatabaseException e) {
            RoundLog.LOG.atLevel(Level.WARN).addKeyValue("event", "rerun.sweep_failed").addKeyValue("error", e.getMessage())
                    .log("rerun sweep failed, trying again in {}: {}", leases.retryInterval(), e.getMessage());
        }
    }
}
