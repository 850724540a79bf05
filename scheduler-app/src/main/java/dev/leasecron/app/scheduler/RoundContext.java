package dev.leasecron.app.scheduler;

import dev.leasecron.jobs.Cancellation;
import dev.leasecron.jobs.JobContext;
import dev.leasecron.jobs.TransactionWork;
import dev.leasecron.lease.GuardedTransactions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.slf4j.Logger;

/** What one round gives its job. Transactions go through the lease's guard; a lost lease reaches the job as the plugin API's exception. */
record RoundContext(
        String jobName,
        Instant instant,
        long term,
        boolean rerun,
        Map<String, Object> params,
        Duration timeout,
        Logger log,
        Cancellation cancellation,
        GuardedTransactions transactions) implements JobContext {

    @Override
    public <T> T inTransaction(String database, TransactionWork<T> work) throws Exception {
        try {
            return transactions.inTransaction(database, work::run);
        } catch (dev.leasecron.lease.LeaseLostException e) {
            throw (dev.leasecron.jobs.LeaseLostException) RoundCancellation.forJobs(e);
        }
    }
}
