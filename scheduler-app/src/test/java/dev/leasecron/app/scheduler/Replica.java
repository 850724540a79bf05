package dev.leasecron.app.scheduler;

import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.sql.DataSource;

/** One in-process replica: its own pool, leases and scheduler, as a separate process would have. */
final class Replica implements AutoCloseable {
    final Leases leases;
    final Scheduler scheduler;
    final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
    private boolean stopped;

    Replica(TestDatabase db, LeaseTimings timings) {
        this(db, timings, db.pool(4), false);
    }

    /**
     * A replica over a data source the test controls (an {@link dev.leasecron.lease.testing.Outage},
     * a slow database), hearing claims won and refused and rounds started as well.
     */
    static Replica over(TestDatabase db, LeaseTimings timings, DataSource pool) {
        return new Replica(db, timings, pool, true);
    }

    private Replica(TestDatabase db, LeaseTimings timings, DataSource pool, boolean hearAll) {
        this.leases = db.leases(timings, pool);
        RoundListener listener = new RoundListener() {
            @Override
            public void claimed(ScheduledJob job, boolean won) {
                if (hearAll) {
                    events.add("claimed " + job.name() + (won ? " won" : " refused"));
                }
            }

            @Override
            public void started(ScheduledJob job, boolean rerun, Duration fireDelay) {
                if (hearAll) {
                    events.add("started " + job.name() + (rerun ? " rerun" : ""));
                }
            }

            @Override
            public void ended(ScheduledJob job, boolean rerun, Outcome outcome, Duration took) {
                events.add("ended " + job.name() + " " + outcome.label() + (rerun ? " rerun" : ""));
            }

            @Override
            public void skipped(ScheduledJob job, long count) {
                events.add("skipped " + job.name() + " " + count);
            }

            @Override
            public void missed(ScheduledJob job, long count) {
                events.add("missed " + job.name() + " " + count);
            }

            @Override
            public void suspended(ScheduledJob job, long count) {
                events.add("suspended " + job.name() + " " + count);
            }

            @Override
            public void superseded(ScheduledJob job) {
                events.add("superseded " + job.name());
            }
        };
        this.scheduler = new Scheduler(leases, new GuardedTransactions(leases, pool, Map.of()), listener);
    }

    Replica start(ScheduledJob... jobs) {
        scheduler.start(List.of(jobs));
        return this;
    }

    /** The events heard that start with {@code prefix}. */
    List<String> events(String prefix) {
        return events.stream().filter(e -> e.startsWith(prefix)).toList();
    }

    boolean shutdown(Duration grace) throws InterruptedException {
        return shutdown(grace, Duration.ofSeconds(10));
    }

    boolean shutdown(Duration grace, Duration windDown) throws InterruptedException {
        stopped = true;
        return scheduler.shutdown(grace, windDown);
    }

    @Override
    public void close() throws InterruptedException {
        if (!stopped) {
            shutdown(Duration.ofSeconds(5));
        }
    }
}
