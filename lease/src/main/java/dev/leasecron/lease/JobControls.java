package dev.leasecron.lease;

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
     * @return the request on record under {@code id}: this one, or the one recorded before with that id
     * @throws LeaseDatabaseException the database did not answer
     */
    public RunRequest requestRun(String name, String id, String by) {
        throw new UnsupportedOperationException("to be implemented");
    }

    /**
     * The request recorded under {@code id}, as far as it got.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public Optional<RunRequest> runRequest(String id) {
        throw new UnsupportedOperationException("to be implemented");
    }
}
