package dev.leasecron.app.web.admin;

import dev.leasecron.app.control.UnknownJobException;
import dev.leasecron.config.JobSpec;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.RunRequestState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link JobControlPort} for the routes' tests: it knows a fixed set of jobs, keeps run requests in
 * memory (once per id, as the real one), and records every change it is asked for, so a test can
 * check that a refused request changed nothing.
 */
public class RecordingControls implements JobControlPort {
    private final Set<String> jobs;
    private final List<String> changes = new CopyOnWriteArrayList<>();
    private final Map<String, RunRequest> requests = new ConcurrentHashMap<>();

    public RecordingControls(Set<String> jobs) {
        this.jobs = Set.copyOf(jobs);
    }

    /** Each change asked for, oldest first: {@code trigger JOB ID REQUESTER}, {@code suspend JOB REQUESTER REASON}, ... */
    public List<String> changes() {
        return List.copyOf(changes);
    }

    @Override
    public RunRequest trigger(String job, String requestId, String requester) {
        known(job);
        changes.add("trigger " + job + " " + requestId + " " + requester);
        return requests.computeIfAbsent(requestId, id -> new RunRequest(id, JobSpec.LEASE_PREFIX + job, requester,
                Instant.parse("2026-12-06T23:30:00Z"), RunRequestState.PENDING, Optional.empty(), 0, Optional.empty()));
    }

    @Override
    public Optional<RunRequest> request(String requestId) {
        return Optional.ofNullable(requests.get(requestId));
    }

    @Override
    public boolean suspend(String job, String requester, String reason) {
        known(job);
        changes.add("suspend " + job + " " + requester + " " + reason);
        return true;
    }

    @Override
    public boolean resume(String job, String requester) {
        known(job);
        changes.add("resume " + job + " " + requester);
        return false;
    }

    private void known(String job) {
        if (!jobs.contains(job)) {
            throw new UnknownJobException(job);
        }
    }
}
