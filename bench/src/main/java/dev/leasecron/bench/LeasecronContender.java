package dev.leasecron.bench;

import dev.leasecron.app.scheduler.RoundListener;
import dev.leasecron.app.scheduler.ScheduledJob;
import dev.leasecron.app.scheduler.Scheduler;
import dev.leasecron.jobs.Job;
import dev.leasecron.jobs.JobContext;
import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * leasecron as the daemon builds it: one {@link Scheduler} per replica with the default timings (15 s
 * lease).
 */
final class LeasecronContender implements Contender {
    static final String NAME = "leasecron";
    private Scheduler scheduler;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void prepareSchema(DataSource admin) throws Exception {
        // Every table a replica writes, so that no cell starts on the rows (or the table settings) of the
        // cells before it.
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("gst_leases", "gst_history", "gst_run_requests", "gst_suspensions")) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Override
    public void start(DataSource pool, int replica, int jobs, int periodSeconds, Recorder recorder) {
        Leases l = Leases.create(pool, LeaseTimings.DEFAULT, "bench-" + replica, LeaseListener.NONE);
        l.initialize();
        Job noop = new Job() {
            @Override
            public String type() {
                return "noop";
            }

            @Override
            public void run(JobContext context) {
                recorder.fired(Integer.parseInt(context.jobName().substring(4)), context.instant());
            }
        };
        List<ScheduledJob> scheduled = new ArrayList<>(jobs);
        for (int j = 0; j < jobs; j++) {
            scheduled.add(new ScheduledJob("job-" + j, "cron:job-" + j, new EverySeconds(periodSeconds), "noop", noop,
                    Map.of(), Duration.ofMinutes(1), false, true));
        }
        GuardedTransactions transactions = new GuardedTransactions(l, pool, Map.of());
        scheduler = new Scheduler(l, transactions, RoundListener.NONE);
        scheduler.start(scheduled);
    }

    /** The statements of one rerun sweep over {@code jobs} jobs with nothing to rerun. */
    static long sweepStatements(DataSource admin, int jobs) {
        StatementCounter counter = new StatementCounter();
        Leases l = Leases.create(counter.wrap(admin), LeaseTimings.DEFAULT, "bench-sweep", LeaseListener.NONE);
        l.initialize();
        List<String> names = new ArrayList<>(jobs);
        for (int j = 0; j < jobs; j++) {
            names.add("cron:job-" + j);
        }
        long before = counter.statements();
        l.slots().unfinishedSlots(names);
        return counter.statements() - before;
    }

    @Override
    public void stop() throws InterruptedException {
        scheduler.shutdown(Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    @Override
    public String settings() {
        return "one Scheduler per replica, default timings (lease 15 s, renew 2 s), a virtual thread per round (none per job"
                + " between instants), claims and finishes due together shared in batch statements";
    }
}
