package dev.leasecron.app.ops;

import dev.leasecron.app.scheduler.Outcome;
import dev.leasecron.app.scheduler.RoundListener;
import dev.leasecron.app.scheduler.ScheduledJob;
import dev.leasecron.config.JobSpec;
import dev.leasecron.lease.Handle;
import dev.leasecron.app.logging.Events;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseListener;
import java.time.Duration;

/** Counts what the scheduler and the leases under it do into {@link SchedulerMetrics}. */
public final class MetricsListener implements RoundListener, LeaseListener {
    private final SchedulerMetrics metrics;
    private final BurstWarning historyWarnings = new BurstWarning(Events.HISTORY_WRITE_FAILED, java.time.Duration.ofMinutes(1),
            "the round history could not be written; rounds and leases are unaffected");

    public MetricsListener(SchedulerMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void claimed(ScheduledJob job, boolean won) {
        metrics.claim(won);
    }

    @Override
    public void started(ScheduledJob job, boolean rerun, Duration fireDelay) {
        metrics.fireDelay(fireDelay);
        if (rerun) {
            metrics.rerunStarted(job.name());
        }
    }

    @Override
    public void ended(ScheduledJob job, boolean rerun, Outcome outcome, Duration took) {
        metrics.roundEnded(job.name(), outcome);
    }

    @Override
    public void skipped(ScheduledJob job, long count) {
        metrics.instantsSkipped(job.name(), count);
    }

    @Override
    public void missed(ScheduledJob job, long count) {
        metrics.instantsMissed(job.name(), count);
    }

    @Override
    public void suspended(ScheduledJob job, long count) {
        metrics.instantsSuspended(job.name(), count);
    }

    @Override
    public void superseded(ScheduledJob job) {
        metrics.instantSuperseded(job.name());
    }

    @Override
    public void renewFailed(Handle handle, Throwable cause) {
        metrics.leaseRenewFailed(jobOf(handle));
    }

    @Override
    public void lost(Handle handle, String reason) {
        metrics.leaseLost(jobOf(handle));
    }

    /**
     * Counts the failure and warns of it once per burst: a database that refuses the history refuses
     * every statement for a while, and a line per statement would drown the log.
     */
    @Override
    public void historyFailed(LeaseDatabaseException cause) {
        metrics.historyWriteFailed();
        historyWarnings.warn(cause.getMessage());
    }

    /** Lease names of jobs are the job's name behind the scheduler's prefix. */
    private static String jobOf(Handle handle) {
        String name = handle.name();
        return name.startsWith(JobSpec.LEASE_PREFIX) ? name.substring(JobSpec.LEASE_PREFIX.length()) : name;
    }
}
