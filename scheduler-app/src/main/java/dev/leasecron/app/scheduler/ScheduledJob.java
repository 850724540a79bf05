package dev.leasecron.app.scheduler;

import dev.leasecron.jobs.Job;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * A job as the scheduler runs it: the validated YAML entry joined with the plugin that runs it.
 *
 * @param name the job's name
 * @param leaseName the name its instants are claimed under (the job's name with a {@code cron:} prefix)
 * @param instants its schedule
 * @param type the plugin type, for logs
 * @param job the plugin
 * @param params the plugin's params
 * @param timeout how long a round may run before it is cancelled
 * @param catchUpLatest whether the most recent instant missed while no replica ran is run at start
 * @param clusterWide true: one replica per instant, under a lease; false: every replica, no lease
 */
public record ScheduledJob(
        String name,
        String leaseName,
        Instants instants,
        String type,
        Job job,
        Map<String, Object> params,
        Duration timeout,
        boolean catchUpLatest,
        boolean clusterWide) {

    public ScheduledJob {
        Objects.requireNonNull(name);
        Objects.requireNonNull(leaseName);
        Objects.requireNonNull(instants);
        Objects.requireNonNull(job);
        params = Map.copyOf(params);
        Objects.requireNonNull(timeout);
    }
}
