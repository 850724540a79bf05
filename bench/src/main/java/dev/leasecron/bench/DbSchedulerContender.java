package dev.leasecron.bench;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedule;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * db-scheduler with M recurring tasks on a cron schedule with seconds, one {@code Scheduler} per replica
 * with as many threads as connections, lock-and-fetch polling (the docs' choice for PostgreSQL under
 * load) and a polling interval of 1 s (or 100 ms) instead of the 10 s default: the interval
 * bounds the fire delay, so a user who cares about it lowers it (the lower, the more statements).
 */
final class DbSchedulerContender implements Contender {
    static final Duration DEFAULT_POLLING = Duration.ofSeconds(1);
    private final Duration polling;
    private Scheduler scheduler;

    DbSchedulerContender(Duration polling) {
        this.polling = polling;
    }

    @Override
    public String name() {
        return polling.equals(DEFAULT_POLLING) ? "db-scheduler" : "db-scheduler-" + polling.toMillis() + "ms";
    }

    @Override
    public void prepareSchema(DataSource admin) throws Exception {
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS scheduled_tasks");
            // db-scheduler's postgresql_tables.sql, migrations applied.
            s.execute("""
                    create table scheduled_tasks (
                      task_name text not null,
                      task_instance text not null,
                      task_data bytea,
                      execution_time timestamp with time zone,
                      picked BOOLEAN not null,
                      picked_by text,
                      last_success timestamp with time zone,
                      last_failure timestamp with time zone,
                      consecutive_failures INT,
                      last_heartbeat timestamp with time zone,
                      version BIGINT not null,
                      priority SMALLINT,
                      state text,
                      PRIMARY KEY (task_name, task_instance))""");
            s.execute("CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time)");
            s.execute("CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat)");
            s.execute("CREATE INDEX priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc)");
        }
    }

    @Override
    public void start(DataSource pool, int replica, int jobs, int periodSeconds, Recorder recorder) {
        List<RecurringTask<Void>> tasks = new ArrayList<>(jobs);
        for (int j = 0; j < jobs; j++) {
            int job = j;
            tasks.add(Tasks.recurring("job-" + j, new OnTheSecond(periodSeconds))
                    .execute((instance, ctx) -> recorder.fired(job, ctx.getExecution().executionTime)));
        }
        scheduler = Scheduler.create(pool)
                .startTasks(tasks)
                .threads(Cell.POOL_SIZE)
                .pollUsingLockAndFetch(0.5, 1.0)
                .pollingInterval(polling)
                .schedulerName(new SchedulerName.Fixed("replica-" + replica))
                .build();
        scheduler.start();
    }

    @Override
    public void stop() {
        scheduler.stop();
    }

    @Override
    public String settings() {
        return "Tasks.recurring every P s on the second, threads " + Cell.POOL_SIZE + ", pollUsingLockAndFetch(0.5, 1.0), pollingInterval "
                + polling.toMillis() + " ms (default 10 s), other settings default";
    }

    /**
     * Every P seconds on the second, the cron {@code 0/P * * * * *} means. Not {@code Schedules.cron}:
     * every second, its next time keeps the nanoseconds of the moment it was computed from
     * (12:11:36.300426963Z), so the rounds drift off the instants the cell measures.
     */
    private record OnTheSecond(int periodSeconds) implements Schedule {
        @Override
        public Instant getNextExecutionTime(ExecutionComplete complete) {
            return Instant.ofEpochSecond((Math.floorDiv(complete.getTimeDone().getEpochSecond(), periodSeconds) + 1) * periodSeconds);
        }

        @Override
        public boolean isDeterministic() {
            return true;
        }
    }
}
