package dev.leasecron.bench;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * ShedLock guarding a local per-second timer on each replica, as {@code @Scheduled} + {@code @SchedulerLock}
 * would: every replica fires every job at the instant by its own clock and tries the job's lock; the
 * JDBC-template provider with {@code usingDbTime()}, {@code lockAtLeastFor} half the period (the docs'
 * guard against a second replica running a short task again) and {@code lockAtMostFor} 90%. The task
 * runs on a pool with as many threads as the replica has connections (Spring's default is one thread).
 */
final class ShedLockContender implements Contender {
    private ExecutorService tasks;
    private Thread timer;
    private int threads;

    @Override
    public String name() {
        return "shedlock";
    }

    @Override
    public void prepareSchema(DataSource admin) throws Exception {
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS shedlock");
            s.execute("CREATE TABLE shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL,"
                    + " locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
        }
    }

    @Override
    public void start(DataSource pool, int replica, int jobs, int periodSeconds, Recorder recorder) {
        threads = Cell.POOL_SIZE;
        Duration atLeast = Duration.ofMillis(periodSeconds * 500L);
        Duration atMost = Duration.ofMillis(periodSeconds * 900L);
        LockingTaskExecutor locking = new DefaultLockingTaskExecutor(new JdbcTemplateLockProvider(
                JdbcTemplateLockProvider.Configuration.builder()
                        .withJdbcTemplate(new JdbcTemplate(pool))
                        .withLockedByValue("replica-" + replica)
                        .usingDbTime()
                        .build()));
        tasks = Executors.newFixedThreadPool(threads);
        timer = Thread.ofPlatform().name("shedlock-timer").daemon().start(() -> {
            long p = periodSeconds * 1000L;
            try {
                while (true) {
                    long next = Math.floorDiv(System.currentTimeMillis(), p) * p + p;
                    Thread.sleep(Math.max(0, next - System.currentTimeMillis()));
                    Instant instant = Instant.ofEpochMilli(next);
                    for (int j = 0; j < jobs; j++) {
                        int job = j;
                        tasks.execute(() -> locking.executeWithLock((Runnable) () -> recorder.fired(job, instant),
                                new LockConfiguration(Instant.now(), "job-" + job, atMost, atLeast)));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    @Override
    public void stop() throws InterruptedException {
        timer.interrupt();
        tasks.shutdownNow();
        tasks.awaitTermination(5, TimeUnit.SECONDS);
    }

    @Override
    public String settings() {
        return "JdbcTemplateLockProvider usingDbTime(), a local timer per replica firing every job on the instant onto "
                + threads + " task threads, lockAtLeastFor 50% and lockAtMostFor 90% of the period";
    }
}
