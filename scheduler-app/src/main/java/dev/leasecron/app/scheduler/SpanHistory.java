package dev.leasecron.app.scheduler;

import dev.leasecron.lease.BatchResult;
import dev.leasecron.lease.Coalescer;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.NotRun;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Records the spans of instants not run in the round history, where {@link RoundEvents} logs them:
 * a group commit of its own, since they are rare and a round never waits for them. Rounds of jobs of
 * {@code scope: replica} take no lease and are not in the history, so neither are their spans.
 */
final class SpanHistory {
    /** Records nothing: for schedulers without leases, and tests. */
    static final SpanHistory NONE = new SpanHistory(null, Duration.ZERO);

    private final Coalescer<NotRun, Boolean> writes;

    SpanHistory(Leases leases, Duration window) {
        this.writes = leases == null ? null : new Coalescer<>("history-spans", window, asked -> {
            // Failures are the history's to report (LeaseListener.historyFailed), never the caller's.
            leases.history().recordNotRun(asked);
            Map<NotRun, Boolean> answered = new LinkedHashMap<>();
            asked.forEach(span -> answered.put(span, true));
            return new BatchResult<>(answered, Map.of());
        });
    }

    void record(ScheduledJob job, InstantSpan span, HistoryOutcome outcome, String reason) {
        record(job, span.first(), span.last(), span.count(), outcome, reason);
    }

    void record(ScheduledJob job, Instant first, Instant last, long count, HistoryOutcome outcome, String reason) {
        if (writes == null || !job.clusterWide()) {
            return;
        }
        writes.submit(new NotRun(job.leaseName(), first, last, count, outcome, reason));
    }
}
