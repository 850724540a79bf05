package dev.leasecron.lease;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * What operators change at run time, stored on the primary database so every replica sees it:
 * suspensions of jobs and requests to run a job now. Reached through {@link Leases#controls()}.
 *
 * <p>Nothing here runs a job: replicas read suspensions and pending requests at every renew interval
 * and act on them through the lease protocol, so a request runs on exactly one replica and a suspension
 * is honoured cluster-wide within one renew interval.
 */
public final class JobControls {
    private final Leases leases;

    JobControls(Leases leases) {
        this.leases = leases;
    }

    /**
     * Suspends the job under {@code name}; a job already suspended keeps its first suspension.
     *
     * @return true if this call suspended it
     * @throws LeaseDatabaseException the database did not answer
     */
    public boolean suspend(String name, String by, String reason) {
        throw new UnsupportedOperationException("to be implemented");
    }

    /**
     * Resumes the job under {@code name}.
     *
     * @return true if it was suspended
     * @throws LeaseDatabaseException the database did not answer
     */
    public boolean resume(String name) {
        throw new UnsupportedOperationException("to be implemented");
    }

    /**
     * The suspensions among {@code names}, by name; a name not suspended is absent.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public Map<String, Suspension> suspensions(Collection<String> names) {
        throw new UnsupportedOperationException("to be implemented");
    }

    /**
     * Records a request to run the job under {@code name} now, once per {@code id}.
     *
     * <p>The request is pending until a replica running the job claims the job's lease for it, which
     * it does once the lease is free (a round running ends first), so it runs on exactly one replica;
     * see {@link ManualRounds}. An id used before, for this job or another, returns the request
     * recorded then and records nothing.
     *
     * @return the request on record under {@code id}: this one, or the one recorded before with that id
     * @throws IllegalArgumentException the name cannot be a lease name, the id is blank or longer than
     *     191 UTF-8 bytes, or the requester longer than that
     * @throws LeaseDatabaseException the database did not answer
     */
    public RunRequest requestRun(String name, String id, String by) {
        LeaseName.validate(name);
        if (id == null || id.isBlank() || id.getBytes(StandardCharsets.UTF_8).length > LeaseName.MAX_BYTES) {
            throw new IllegalArgumentException("a request id has 1 to " + LeaseName.MAX_BYTES + " UTF-8 bytes, not blank");
        }
        String requester = by == null ? "" : by;
        if (requester.getBytes(StandardCharsets.UTF_8).length > LeaseName.MAX_BYTES) {
            throw new IllegalArgumentException("a requester has at most " + LeaseName.MAX_BYTES + " UTF-8 bytes");
        }
        leases.store().insertRunRequest(id, name, requester);
        // Written now or before: the one on record is the answer either way, read back on the same database.
        return leases.store().runRequest(id).orElseThrow(() ->
                new LeaseDatabaseException("recorded run request " + id + " but could not read it back", null));
    }

    /**
     * The request recorded under {@code id}, as far as it got.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public Optional<RunRequest> runRequest(String id) {
        return leases.store().runRequest(id);
    }
}
