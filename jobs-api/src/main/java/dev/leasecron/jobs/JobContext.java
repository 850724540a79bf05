package dev.leasecron.jobs;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.slf4j.Logger;

/**
 * What a round gives its job: which instant it runs for, under which lease term, the job's params, a
 * logger, the round's cancellation and database transactions that are guarded by the round's lease.
 */
public interface JobContext {

    /** The job's {@code name} from the jobs YAML. */
    String jobName();

    /** The scheduled instant this round runs for (not the time it started). */
    Instant instant();

    /**
     * The lease term the round runs under. Terms only grow, per job: a system outside leasecron can
     * refuse writes carrying a term older than one it has seen (fencing).
     */
    long term();

    /** True when this round runs the instant a second time, after its first round was cut short. */
    boolean rerun();

    /** The job's {@code params} mapping, after interpolation; never null, not modifiable. */
    Map<String, Object> params();

    /** The job's {@code timeout}: the round is cancelled once it has run this long. */
    Duration timeout();

    /** A logger whose entries carry the round's job, instant, term and rerun fields. */
    Logger log();

    /**
     * Fires when the round must stop: its timeout passed, the daemon is shutting down, or its lease
     * was lost. The running thread is interrupted at the same moment.
     */
    Cancellation cancellation();

    /**
     * Runs {@code work} in a transaction on the primary database, guarded by the round's lease: the
     * lease is verified before the work's first statement, and a lease lost while the transaction is
     * open rolls it back and refuses its commit.
     *
     * @throws LeaseLostException the lease was not, or is no longer, this round's
     * @throws Exception what {@code work} threw; the transaction is rolled back
     */
    default <T> T inTransaction(TransactionWork<T> work) throws Exception {
        return inTransaction(PRIMARY_DATABASE, work);
    }

    /**
     * {@link #inTransaction(TransactionWork)} on one of the named databases of the YAML's
     * {@code database.instances}; the lease is verified against the primary database before the
     * work's first statement.
     *
     * @throws IllegalArgumentException no database has that name
     */
    <T> T inTransaction(String database, TransactionWork<T> work) throws Exception;

    /** The name of the primary database, the one that holds the leases. */
    String PRIMARY_DATABASE = "primary";
}
