package dev.leasecron.app.control;

import dev.leasecron.lease.RunRequest;
import java.util.Optional;

/**
 * An operator's actions on the jobs of the config: run one now, suspend it, resume it. The command
 * line and the HTTP API both act through this class, so both check the job the same way and log the
 * same events ({@code job.triggered}, {@code job.suspended}, {@code job.resumed}) with the requester,
 * never a token.
 */
public final class JobActions {

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
}
