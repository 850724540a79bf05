package dev.leasecron.app.control;

import dev.leasecron.app.logging.Event;
import dev.leasecron.app.logging.Events;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.Scope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.Suspension;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
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
 *
 * <p>It acts on the primary database only ({@link Leases#controls()}): the replicas running the job
 * take a run request or a suspension up within a renew interval, so the process asking need not be a
 * replica.
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
     * Asks for a run of {@code job} now; once per {@code requestId}. A replica running the job claims
     * its lease for the request once the lease is free, so the run waits for a round of the job
     * running now, and runs on one replica only, however often or wherever the request is sent.
     *
     * @param requestId the request's id; null or blank: a new UUID
     * @return the request on record under the id: this one, or the one recorded before with that id
     * @throws UnknownJobException no job of that name in the config
     * @throws ActionRefusedException the job is of {@code scope: replica} or disabled
     * @throws IllegalArgumentException the id or the requester is longer than 191 UTF-8 bytes
     * @throws dev.leasecron.lease.LeaseDatabaseException the database did not answer
     */
    public RunRequest trigger(String job, String requestId, String requester) {
        JobSpec spec = find(job);
        if (spec.scope() == Scope.REPLICA) {
            throw new ActionRefusedException("job '" + job + "' has scope: replica: every replica runs it on its own,"
                    + " so there is no cluster-wide run to trigger");
        }
        if (!spec.enabled()) {
            throw new ActionRefusedException("job '" + job + "' is disabled (enabled: false): no replica runs it");
        }
        String id = requestId == null || requestId.isBlank() ? UUID.randomUUID().toString() : requestId;
        RunRequest request = leases.controls().requestRun(spec.leaseName(), id, requester);
        String state = request.state().name().toLowerCase(Locale.ROOT);
        // A request id used before answers with the request on record: its state and time tell it apart.
        Event.of(Events.JOB_TRIGGERED).with("job", job).with("request_id", request.id()).with("requested_by", requester)
                .with("requested_at", request.requestedAt().toString()).with("state", state).info(LOG);
        return request;
    }

    /**
     * The run request recorded under {@code requestId}, as far as it got.
     *
     * @throws dev.leasecron.lease.LeaseDatabaseException the database did not answer
     */
    public Optional<RunRequest> request(String requestId) {
        return leases.controls().runRequest(requestId);
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
            Event.of(Events.JOB_SUSPENDED).with("job", spec.name()).with("requested_by", requester)
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
            Event.of(Events.JOB_RESUMED).with("job", spec.name()).with("requested_by", requester).info(LOG);
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
