package dev.leasecron.lease.sql;

import static dev.leasecron.lease.sql.StoreCalls.bounded;
import static dev.leasecron.lease.sql.StoreCalls.call;

import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.Suspension;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The statements of the operators' controls, suspensions ({@code gst_suspensions}) and run requests
 * ({@code gst_run_requests}), strictly for use by the lease package, as {@link LeaseStore}'s: one
 * statement each unless said, failures as {@link dev.leasecron.lease.LeaseDatabaseException},
 * nothing retried.
 */
public final class ControlStore {
    private final Sql sql;

    ControlStore(Sql sql) {
        this.sql = sql;
    }

    /** Creates {@code gst_suspensions} when missing; safe from many replicas at once. */
    public void createSuspensionsIfMissing() {
        call("create gst_suspensions", () -> {
            SuspensionStatement.createIfMissing(sql);
            return null;
        });
    }

    public boolean suspensionsExist() {
        return call("read gst_suspensions", () -> SuspensionStatement.exists(sql));
    }

    /** Suspends {@code name} unless it is: 1 row when this call suspended it, else 0. */
    public int suspend(String name, String by, String reason) {
        return call("suspend", () -> SuspensionStatement.insert(sql, name, by, reason));
    }

    /** Resumes {@code name}: 1 row when it was suspended, else 0. */
    public int resume(String name) {
        return call("resume", () -> SuspensionStatement.delete(sql, name));
    }

    /** The suspensions among {@code names} (at most {@link #MAX_BATCH}); one statement. */
    public List<Suspension> suspensions(Collection<String> names) {
        bounded(names);
        return call("read the suspensions", () -> SuspensionStatement.read(sql, names));
    }

    /** Creates {@code gst_run_requests} when missing; safe from many replicas at once. */
    public void createRunRequestsIfMissing() {
        call("create gst_run_requests", () -> {
            RunRequestStatement.createIfMissing(sql);
            return null;
        });
    }

    public boolean runRequestsExist() {
        return call("read gst_run_requests", () -> RunRequestStatement.exists(sql));
    }

    /** Records a pending run request unless {@code id} is taken; 1 when written, 0 when not. */
    public int insertRunRequest(String id, String name, String by) {
        return call("record a run request", () -> RunRequestStatement.insert(sql, id, name, by));
    }

    public Optional<RunRequest> runRequest(String id) {
        return call("read a run request", () -> RunRequestStatement.read(sql, id));
    }

    /** The run requests of {@code names} (at most {@link #MAX_BATCH}) not ended, with their leases; one statement. */
    public List<OpenRequest> openRunRequests(Collection<String> names) {
        bounded(names);
        return call("read the run requests", () -> RunRequestStatement.open(sql, names));
    }

    /** Claims {@code name}'s lease for run request {@code id}, which it marks running; one transaction. */
    public Optional<ManualClaim> claimForRequest(String id, String name, String holder, String instance) {
        return call("claim for a run request", () -> RunRequestStatement.claim(sql, id, name, holder, instance));
    }

    /** Ends the manual round of request {@code id} (see {@link RunRequestStatement#end}); one transaction. */
    public Optional<Long> endManual(String id, String name, String holder, long term, boolean withLease, long passedMs,
            long nextMs, String outcome) {
        return call("end a manual round", () -> RunRequestStatement.end(sql, id, name, holder, term, withLease, passedMs,
                nextMs, outcome));
    }

    /** Marks request {@code id} ended with {@code outcome} if it still runs under {@code term}; 1 or 0. */
    public int markRequestEnded(String id, long term, String outcome) {
        return call("end a run request", () -> RunRequestStatement.markEnded(sql, id, term, outcome));
    }

    /** Deletes at most {@code max} requests older than {@code retainMs}, but those running; one statement. */
    public int purgeRunRequestsOlderThan(long retainMs, int max) {
        return call("purge run requests", () -> RunRequestStatement.purgeOlderThan(sql, retainMs, max));
    }
}
