package dev.leasecron.app.control;

import dev.leasecron.app.logging.Event;
import dev.leasecron.app.logging.Events;
import dev.leasecron.config.JobSpec;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.Suspension;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's actions on the jobs of the config: run one now, suspend it, resume it. The command
 * line and the HTTP API both act through this class, so both check the job the same way and log the
 * same events ({@code job.triggered}, {@code job.suspended}, {@code job.resumed}) with the requester,
 * never a token.
 *
 * <p>Jobs are named as in the config; the actions reach the database under their lease names
 * ({@link JobSpec#leaseName()}), as the scheduler claims them. A job {@code enabled: false} can be
 * suspended and resumed like any other; it runs only once enabled and not suspended.
 */
public final class JobActions {
    private static final Logger LOG = LoggerFactory.getLogger("leasecron.control");

    private final Leases leases;
    private final Supplier<? extends Collection<JobSpec>> jobs;

    /**
     * @param leases the primary database, initialized or opened ({@link Leases#openExisting()})
     * @param jobs the jobs of the config in force, read at each action: the daemon's after a reload
     */
    public JobActions(Leases leases, Supplier<? extends Collection<JobSpec>> jobs) {
        this.leases = Objects.requireNonNull(leases, "leases");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
    }

    /** Actions on {@code jobs}, a config that does not change (the command line's). */
    public static JobActions of(Leases leases, Collection<JobSpec> jobs) {
        List<JobSpec> fixed = List.copyOf(jobs);
        return new JobActions(leases, () -> fixed);
    }

    /**
     * Asks for a run of {@code job} now; once per {@code requestId}.
     *
     * @throws UnknownJobException no job of that name in the config
     */
    public RunRequest trigger(String job, String requestId, String requester) {
        throw new UnsupportedOperationException("to be implemented");
    }

    /** The run request recorded under {@code requestId}, as far as it got. */
    public Optional<RunRequest> request(String requestId) {
        throw new UnsupportedOperationException("to be implemented");
    }

    /**
     * Suspends {@code job} cluster-wide: every replica leaves its instants alone within one renew
     * interval (each recorded {@code suspended} in the history); a round running now runs to its end.
     * Logged {@code job.suspended} when this call suspended it.
     *
     * @param reason why, shown to the other operators; null or blank when none
     * @return true if this call suspended it, false if it already was (the first suspension stays)
     * @throws UnknownJobException no job of that name in the config
     * @throws dev.leasecron.lease.LeaseDatabaseException the database did not answer
     */
    public boolean suspend(String job, String requester, String reason) {
        JobSpec spec = find(job);
        String why = reason == null ? "" : reason.strip();
        boolean changed = leases.controls().suspend(spec.leaseName(), requester, why);
        if (changed) {
            Event.of(Events.JOB_SUSPENDED).with("job", spec.name()).with("requester", requester)
                    .with("reason", why.isEmpty() ? null : why).info(LOG);
        }
        return changed;
    }

    /**
     * Resumes {@code job}: its next instant runs, on whichever replica claims it, and a job of
     * {@code catchUp: latest} first runs its latest instant, once, when that one is on record suspended
     * within the catch-up window (the replicas decide, as they see the resume). Logged
     * {@code job.resumed} when it was suspended.
     *
     * @return true if it was suspended
     * @throws UnknownJobException no job of that name in the config
     * @throws dev.leasecron.lease.LeaseDatabaseException the database did not answer
     */
    public boolean resume(String job, String requester) {
        JobSpec spec = find(job);
        boolean changed = leases.controls().resume(spec.leaseName());
        if (changed) {
            Event.of(Events.JOB_RESUMED).with("job", spec.name()).with("requester", requester).info(LOG);
        }
        return changed;
    }

    /**
     * The suspension of {@code job}, if it is suspended.
     *
     * @throws UnknownJobException no job of that name in the config
     * @throws dev.leasecron.lease.LeaseDatabaseException the database did not answer
     */
    public Optional<Suspension> suspension(String job) {
        JobSpec spec = find(job);
        return Optional.ofNullable(leases.controls().suspensions(List.of(spec.leaseName())).get(spec.leaseName()));
    }

    private JobSpec find(String job) {
        return jobs.get().stream().filter(j -> j.name().equals(job)).findFirst()
                .orElseThrow(() -> new UnknownJobException(job));
    }
}
