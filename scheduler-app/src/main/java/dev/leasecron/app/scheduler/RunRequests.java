package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.RunRequest;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every renew interval, one statement finds the requests to run a job of this replica now whose
 * job's lease is free (see {@link dev.leasecron.lease.ManualRounds}); each is claimed, and the replica
 * whose claim commits runs it on a thread of its own ({@link ManualRoundRunner}), so one long manual
 * round holds up neither the look nor the job's own instants. A request whose job's lease is held, a
 * round of an instant running, waits for a later look; it is never queued here.
 *
 * <p>One thread for every job: the look costs one statement per replica per renew interval however
 * many jobs there are, and the claim one transaction per request found.
 */
final class RunRequests {
    private final Leases leases;
    private final ManualRoundRunner rounds;
    private final Supplier<Map<String, ScheduledJob>> jobsByLeaseName;
    private final LeaseScope scope;

    RunRequests(Leases leases, ManualRoundRunner rounds, Supplier<Map<String, ScheduledJob>> jobsByLeaseName,
            LeaseScope scope) {
        this.leases = leases;
        this.rounds = rounds;
        this.jobsByLeaseName = jobsByLeaseName;
        this.scope = scope;
    }

    void run() {
        try {
            while (!scope.await(leases.timings().renewInterval())) {
                lookOnce();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void lookOnce() {
        Map<String, ScheduledJob> jobs = jobsByLeaseName.get();
        if (jobs.isEmpty()) {
            return;
        }
        try {
            for (RunRequest request : leases.manualRounds().claimable(jobs.keySet())) {
                if (!rounds.claimAndStart(scope, jobs.get(request.name()), () -> leases.manualRounds().claim(request))) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            // A database that does not answer, or a bug: the look goes on, or no request would run again.
            SchedulerEvents.runRequestsFailed(leases.retryInterval(), String.valueOf(e.getMessage()));
        }
    }
}
