package dev.leasecron.bench;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import javax.sql.DataSource;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.utils.ConnectionProvider;
import org.quartz.utils.DBConnectionManager;

/**
 * Quartz with the clustered JDBC job store as its clustering docs configure it (JobStoreTX,
 * isClustered, clusterCheckinInterval 20 s, misfireThreshold 60 s, the PostgreSQL delegate), one
 * {@code Scheduler} per replica sharing one instance name, a thread pool as large as the replica's
 * connection pool, and M jobs each with a cron trigger {@code 0/S * * * * ?}.
 */
final class QuartzContender implements Contender {
    private static final String NAME = "leasecron-bench";
    /** Quartz builds its jobs by class name; a replica runs one contender in its JVM, so a static is enough. */
    static volatile Recorder recorder;
    private Scheduler scheduler;

    /** The no-op job: reports its start. */
    public static final class Noop implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            recorder.fired(Integer.parseInt(context.getJobDetail().getKey().getName().substring(4)),
                    context.getScheduledFireTime().toInstant());
        }
    }

    @Override
    public String name() {
        return "quartz";
    }

    @Override
    public void prepareSchema(DataSource admin) throws Exception {
        String script;
        try (InputStream in = Scheduler.class.getResourceAsStream("/org/quartz/impl/jdbcjobstore/tables_postgres.sql")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        StringBuilder noComments = new StringBuilder();
        for (String line : script.split("\n")) {
            if (!line.trim().startsWith("--")) {
                noComments.append(line).append('\n');
            }
        }
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            for (String sql : noComments.toString().split(";")) {
                if (!sql.isBlank() && !sql.trim().equalsIgnoreCase("commit")) {
                    s.execute(sql);
                }
            }
        }
    }

    @Override
    public void start(DataSource pool, int replica, int jobs, int periodSeconds, Recorder recorder) throws Exception {
        QuartzContender.recorder = recorder;
        DBConnectionManager.getInstance().addConnectionProvider("ds", new ConnectionProvider() {
            @Override
            public Connection getConnection() throws SQLException {
                return pool.getConnection();
            }

            @Override
            public void shutdown() {}

            @Override
            public void initialize() {}
        });
        Properties p = new Properties();
        p.setProperty("org.quartz.scheduler.instanceName", NAME);
        p.setProperty("org.quartz.scheduler.instanceId", "replica-" + replica);
        p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        p.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
        p.setProperty("org.quartz.threadPool.threadCount", Integer.toString(Cell.POOL_SIZE));
        p.setProperty("org.quartz.jobStore.misfireThreshold", "60000");
        p.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
        p.setProperty("org.quartz.jobStore.driverDelegateClass", "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate");
        p.setProperty("org.quartz.jobStore.useProperties", "false");
        p.setProperty("org.quartz.jobStore.dataSource", "ds");
        p.setProperty("org.quartz.jobStore.tablePrefix", "QRTZ_");
        p.setProperty("org.quartz.jobStore.isClustered", "true");
        p.setProperty("org.quartz.jobStore.clusterCheckinInterval", "20000");
        scheduler = new StdSchedulerFactory(p).getScheduler();
        if (replica == 0) {
            Map<JobDetail, Set<? extends Trigger>> all = new LinkedHashMap<>();
            for (int j = 0; j < jobs; j++) {
                JobDetail job = JobBuilder.newJob(Noop.class).withIdentity("job-" + j).build();
                Trigger t = TriggerBuilder.newTrigger().withIdentity("job-" + j)
                        .withSchedule(CronScheduleBuilder.cronSchedule("0/" + periodSeconds + " * * * * ?")).build();
                all.put(job, Set.of(t));
            }
            scheduler.scheduleJobs(all, true);
        }
        scheduler.start();
    }

    @Override
    public void stop() throws Exception {
        scheduler.shutdown(false);
    }

    @Override
    public String settings() {
        return "JobStoreTX, PostgreSQLDelegate, isClustered, clusterCheckinInterval 20 s, misfireThreshold 60 s, threadCount "
                + Cell.POOL_SIZE + ", batchTriggerAcquisitionMaxCount 1 (default), one CronTrigger per job";
    }
}
