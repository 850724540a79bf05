package dev.leasecron.bench;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * db-scheduler with M recurring tasks on a cron schedule with seconds, one {@code Scheduler} per replica
 * with as many threads as connections, lock-and-fetch polling (the docs' choice for PostgreSQL under
 * load) and a polling interval of {@value #POLLING_SECONDS} s instead of the 10 s default: the interval
 * bounds the fire delay, so a user who cares about it lowers it (the lower, the more statements).
 */
final class DbSchedulerContender implements Contender {
    static final int POLLING_SECONDS = 1;
    private Scheduler scheduler;

    @Override
    public String name() {
        return "db-scheduler";
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
            tasks.add(Tasks.recurring("job-" + j, Schedules.cron("0/" + periodSeconds + " * * * * *"))
                    .execute((instance, ctx) -> recorder.fired(job, ctx.getExecution().executionTime)));
        }
        scheduler = Scheduler.create(pool)
                .startTasks(tasks)
                .threads(Cell.POOL_SIZE)
                .pollUsingLockAndFetch(0.5, 1.0)
                .pollingInterval(Duration.ofSeconds(POLLING_SECONDS))
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
        return "Tasks.recurring with Schedules.cron, threads " + Cell.POOL_SIZE + ", pollUsingLockAndFetch(0.5, 1.0), pollingInterval "
                + POLLING_SECONDS + " s (default 10 s), other settings default";
    }
}
