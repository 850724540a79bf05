package dev.leasecron.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A jobs file that passed validation: everything the daemon needs, defaults filled in. Printing it
 * masks every secret.
 *
 * @param database the shared database, or {@link DatabaseSpec.embeddedDefault()} when the file has none
 * @param instance this replica's name in the lease rows (default: the host name)
 * @param httpPort the port of {@code /healthz}, {@code /readyz} and {@code /metrics} (default 8080)
 * @param shutdownGrace how long running rounds may go on after SIGTERM (default 25 s)
 * @param jobs the jobs in file order, names unique
 */
public record JobsConfig(DatabaseSpec database, String instance, int httpPort, Duration shutdownGrace, List<JobSpec> jobs) {
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(25);

    public JobsConfig {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        jobs = List.copyOf(jobs);
    }

    /** The job called {@code name}, if there is one. */
    public Optional<JobSpec> job(String name) {
        return jobs.stream().filter(job -> job.name().equals(name)).findFirst();
    }
}
