package dev.leasecron.app.web.admin;

import dev.leasecron.app.control.JobActions;
import dev.leasecron.lease.RunRequest;
import java.util.Optional;

/**
 * What the admin API asks of the operators' controls: {@link JobActions}'s methods, behind an interface
 * so that the routes can be tested against a fake that records each call.
 */
public interface JobControlPort {

    /** @see JobActions#trigger(String, String, String) */
    RunRequest trigger(String job, String requestId, String requester);

    /** @see JobActions#request(String) */
    Optional<RunRequest> request(String requestId);

    /** @see JobActions#suspend(String, String, String) */
    boolean suspend(String job, String requester, String reason);

    /** @see JobActions#resume(String, String) */
    boolean resume(String job, String requester);

    /** The port that acts through {@code actions}. */
    static JobControlPort of(JobActions actions) {
        return new JobControlPort() {
            @Override
            public RunRequest trigger(String job, String requestId, String requester) {
                return actions.trigger(job, requestId, requester);
            }

            @Override
            public Optional<RunRequest> request(String requestId) {
                return actions.request(requestId);
            }

            @Override
            public boolean suspend(String job, String requester, String reason) {
                return actions.suspend(job, requester, reason);
            }

            @Override
            public boolean resume(String job, String requester) {
                return actions.resume(job, requester);
            }
        };
    }
}
