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
 * @param instance this replica's name in the lease rows and logs, as written (default: the host name);
 *     the daemon adds {@code -2}, {@code -3}, ... only while another daemon on the same host has it
 * @param httpAddress the address the HTTP endpoints listen on; empty (the default) for every interface
 * @param httpPort the port of {@code /healthz}, {@code /readyz} and {@code /metrics} (default 8080,
 *     or {@code LEASECRON_HTTP_PORT} when it is set, which wins over the file)
 * @param adminToken the token that state-changing HTTP requests must carry ({@code http.adminToken},
 *     at least {@value #MIN_ADMIN_TOKEN_CHARS} visible ASCII characters); {@link Secret#none()} (the
 *     default) means the HTTP API has no state-changing endpoint at all
 * @param shutdownGrace how long running rounds may go on after SIGTERM (default 25 s)
 * @param history the round history's settings ({@code history:}; {@link HistorySpec#DEFAULTS} when absent)
 * @param jobs the jobs in file order, names unique
 */
public record JobsConfig(DatabaseSpec database, String instance, Optional<String> httpAddress, int httpPort,
        Secret adminToken, Duration shutdownGrace, HistorySpec history, List<JobSpec> jobs) {
    public static final int DEFAULT_HTTP_PORT = 8080;
    /** The environment variable that, when set, gives the HTTP port instead of {@code http.port}. */
    public static final String HTTP_PORT_VARIABLE = "LEASECRON_HTTP_PORT";
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(25);
    /** The most {@code instance} may hold: the width of the lease table's instance column, in UTF-8 bytes. */
    public static final int MAX_INSTANCE_BYTES = 191;
    /** The shortest {@code http.adminToken} accepted: a token guessed over the network must be out of reach. */
    public static final int MIN_ADMIN_TOKEN_CHARS = 16;

    public JobsConfig {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(httpAddress, "httpAddress");
        Objects.requireNonNull(adminToken, "adminToken");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(history, "history");
        jobs = List.copyOf(jobs);
    }

    /** A config with the default history settings. */
    public JobsConfig(DatabaseSpec database, String instance, Optional<String> httpAddress, int httpPort,
            Secret adminToken, Duration shutdownGrace, List<JobSpec> jobs) {
        this(database, instance, httpAddress, httpPort, adminToken, shutdownGrace, HistorySpec.DEFAULTS, jobs);
    }

    /** The job called {@code name}, if there is one. */
    public Optional<JobSpec> job(String name) {
        return jobs.stream().filter(job -> job.name().equals(name)).findFirst();
    }
}
