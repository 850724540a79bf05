package dev.leasecron.app.testing;

import dev.leasecron.jobs.JobContext;
import dev.leasecron.jobs.TransactionWork;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * A {@link JobContext} for running a job outside the scheduler: settable round fields, a
 * {@link TestCancellation} and a {@link RecordingLogger}. It has no database, so
 * {@link #inTransaction} is refused.
 */
public final class TestJobContext implements JobContext {
    private final String jobName;
    private final Map<String, Object> params;
    private final TestCancellation cancellation = new TestCancellation();
    private final RecordingLogger log;
    private Instant instant = Instant.parse("2026-12-02T15:04:05Z");
    private long term = 1;
    private boolean rerun;
    private Duration timeout = Duration.ofMinutes(1);

    public TestJobContext(String jobName, Map<String, Object> params) {
        this.jobName = jobName;
        this.params = Map.copyOf(params);
        this.log = new RecordingLogger("job." + jobName);
    }

    public TestJobContext instant(Instant value) {
        instant = value;
        return this;
    }

    public TestJobContext term(long value) {
        term = value;
        return this;
    }

    public TestJobContext rerun(boolean value) {
        rerun = value;
        return this;
    }

    public TestJobContext timeout(Duration value) {
        timeout = value;
        return this;
    }

    @Override
    public String jobName() {
        return jobName;
    }

    @Override
    public Instant instant() {
        return instant;
    }

    @Override
    public long term() {
        return term;
    }

    @Override
    public boolean rerun() {
        return rerun;
    }

    @Override
    public Map<String, Object> params() {
        return params;
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    @Override
    public RecordingLogger log() {
        return log;
    }

    @Override
    public TestCancellation cancellation() {
        return cancellation;
    }

    @Override
    public <T> T inTransaction(String database, TransactionWork<T> work) {
        throw new UnsupportedOperationException("TestJobContext has no database");
    }
}
