package dev.leasecron.app.control;

import static dev.leasecron.app.logging.Events.JOB_TRIGGERED;

import dev.leasecron.config.JobSpec;
import dev.leasecron.config.Scope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.RunRequest;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * An operator's actions on the jobs of the config: run one now, suspend it, resume it. The command
 * line and the HTTP API both act through this class, so both check the job the same way and log the
 * same events ({@code job.triggered}, {@code job.suspended}, {@code job.resumed}) with the requester,
 * never a token.
 *
 * <p>It acts on the primary database only ({@link Leases#controls()}): a replica running the job
 * takes a run request up within a renew interval, so the process asking need not be a replica.
 */
public final class JobActions {
    private static final Logger LOG = LoggerFactory.getLogger("leasecron.control");

    private final Leases leases;
    private final Supplier<? extends Collection<JobSpec>> jobs;

    /**
     * @param leases the leases over the primary database, opened ({@code initialize} or {@code openExisting})
     * @param jobs the jobs of the config in force, asked at every action: a daemon passes the
     *     reloaded config's
     */
    public JobActions(Leases leases, Supplier<? extends Collection<JobSpec>> jobs) {
        this.leases = Objects.requireNonNull(leases, "leases");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
    }

    /** Actions on the fixed {@code jobs}, for a command that loads the config once. */
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
        LOG.atLevel(Level.INFO).addKeyValue("event", JOB_TRIGGERED).addKeyValue("job", job)
                .addKeyValue("request_id", request.id()).addKeyValue("requested_by", requester)
                .addKeyValue("requested_at", request.requestedAt().toString()).addKeyValue("state", state)
                .log("run of {} requested by {}: request {} is {}", job, requester, request.id(), state);
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
     * Suspends {@code job} cluster-wide.
     *
     * @return true if this call suspended it, false if it already was
     * @throws UnknownJobException no job of that name in the config
     */
    public boolean suspend(String job, String requester, String reason) {
        throw new UnsupportedOperationException("to be implemented");
    }

    /**
     * Resumes {@code job}.
     *
     * @return true if it was suspended
     * @throws UnknownJobException no job of that name in the config
     */
    public boolean resume(String job, String requester) {
        throw new UnsupportedOperationException("to be implemented");
    }

    /** The job of the config named {@code job}. */
    private JobSpec find(String job) {
        return jobs.get().stream().filter(j -> j.name().equals(job)).findFirst()
                .orElseThrow(() -> new UnknownJobException(job));
    }
}
