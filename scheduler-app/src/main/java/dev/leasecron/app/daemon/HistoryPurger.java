package dev.leasecron.app.daemon;

import dev.leasecron.app.logging.Event;
import dev.leasecron.app.logging.Events;
import dev.leasecron.app.ops.SchedulerMetrics;
import dev.leasecron.config.HistorySpec;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.Leases;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Purges the round history on a virtual thread of its own: every few minutes, the replica that wins
 * the lease {@value #LEASE} deletes the rows older than {@code history.retain} (by the database
 * clock), then the operators' run requests older than that (but those running), then the rows of each
 * job beyond its newest {@code history.maxRowsPerJob}, at most
 * {@value #BATCH} rows per statement with a pause between statements, so a purge never holds many
 * row locks nor keeps the database busy for long, and rounds never wait for it. A pass stops at half
 * the lease duration, before its lease could expire under it; what is left goes at the next pass.
 */
final class HistoryPurger {
    static final String LEASE = "history:purge";
    static final int BATCH = 1_000;
    /** The most jobs over the cap one pass trims. */
    static final int JOBS_PER_PASS = 200;
    static final Duration EVERY = Duration.ofMinutes(5);
    static final Duration PAUSE = Duration.ofMillis(200);
    private static final Logger LOG = LoggerFactory.getLogger("leasecron.history");

    private final Leases leases;
    private final HistorySpec spec;
    private final SchedulerMetrics metrics;
    private final Duration pause;
    private volatile Thread thread;

    HistoryPurger(Leases leases, HistorySpec spec, SchedulerMetrics metrics, Duration pause) {
        this.leases = leases;
        this.spec = spec;
        this.metrics = metrics;
        this.pause = pause;
    }

    void start() {
        thread = Thread.ofVirtual().name("history-purger").start(this::run);
    }

    void stop() {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    private void run() {
        try {
            // Replicas started together spread their first passes; the lease decides anyway.
            Thread.sleep(Duration.ofMillis(ThreadLocalRandom.current().nextLong(EVERY.toMillis() / 5, EVERY.toMillis())));
            while (true) {
                try {
                    passOnce();
                } catch (RuntimeException e) {
                    Event.of(Events.HISTORY_PURGE_FAILED).with("error", String.valueOf(e.getMessage()))
                            .with("retry_in", EVERY.toString()).warn(LOG);
                }
                Thread.sleep(EVERY);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One pass under the purge lease.
     *
     * @return the history rows deleted (the run requests deleted are logged, not counted), or empty when
     *     another replica holds the lease
     * @throws InterruptedException stopped between two statements
     */
    Optional<Long> passOnce() throws InterruptedException {
        Optional<Handle> held = leases.claim(LEASE);
        if (held.isEmpty()) {
            return Optional.empty();
        }
        long deadline = System.nanoTime() + leases.timings().leaseDuration().toNanos() / 2;
        long byAge = 0;
        long requests = 0;
        long beyondCap = 0;
        try {
            int n;
            do {
                n = leases.history().purgeOlderThan(spec.retain(), BATCH);
                byAge += n;
            } while (n == BATCH && pauseBefore(deadline));
            do {
                n = leases.controls().purgeRunRequestsOlderThan(spec.retain(), BATCH);
                requests += n;
            } while (n == BATCH && pauseBefore(deadline));
            for (String name : leases.history().namesOver(spec.maxRowsPerJob(), JOBS_PER_PASS)) {
                if (!pauseBefore(deadline)) {
                    break;
                }
                do {
                    n = leases.history().purgeBeyond(name, spec.maxRowsPerJob(), BATCH);
                    beyondCap += n;
                } while (n == BATCH && pauseBefore(deadline));
            }
        } finally {
            try {
                held.get().release();
            } catch (RuntimeException e) {
                // Lost under a long pass (LeaseLostException) or the database did not answer: the name frees itself.
            }
            if (byAge + beyondCap + requests > 0) {
                metrics.historyPurged(byAge + beyondCap);
                Event.of(Events.HISTORY_PURGED).with("count", byAge + beyondCap).with("older_than_retain", byAge)
                        .with("beyond_max_rows_per_job", beyondCap).with("run_requests", requests).with("retain", spec.retain().toString())
                        .with("max_rows_per_job", spec.maxRowsPerJob()).info(LOG);
            }
        }
        return Optional.of(byAge + beyondCap);
    }

    /** Pauses between two statements; false when the pass has used its time. */
    private boolean pauseBefore(long deadline) throws InterruptedException {
        if (System.nanoTime() - deadline >= 0) {
            return false;
        }
        Thread.sleep(pause);
        return true;
    }
}
