package dev.leasecron.app.daemon;

import dev.leasecron.app.db.ConnectionFailures;
import dev.leasecron.app.logging.Event;
import dev.leasecron.app.logging.Events;
import dev.leasecron.app.ops.CachedHealthCheck;
import dev.leasecron.app.ops.Health;
import dev.leasecron.app.ops.MetricsListener;
import dev.leasecron.app.ops.OpsServer;
import dev.leasecron.app.ops.SchedulerMetrics;
import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.scheduler.ScheduledJob;
import dev.leasecron.app.scheduler.Scheduler;
import dev.leasecron.app.control.JobActions;
import dev.leasecron.app.web.Dashboard;
import dev.leasecron.app.web.ReadModel;
import dev.leasecron.app.web.admin.AdminApi;
import dev.leasecron.app.web.admin.AdminToken;
import dev.leasecron.app.web.admin.JobControlPort;
import dev.leasecron.config.ConfigError;
import dev.leasecron.config.ConfigException;
import dev.leasecron.config.ConfigListener;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.ConfigWatcher;
import dev.leasecron.config.JobsConfig;
import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.UnsupportedDatabaseException;
import io.javalin.config.RoutesConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code leasecron run}: opens the databases, starts the HTTP endpoints and the dashboard, waits for the lease table,
 * schedules the jobs, applies valid edits of the jobs file as they come, and on {@link #stop()}
 * shuts down the way the orchestrator expects (stop claiming, let rounds end within the grace, cut
 * the rest short so peers run them again).
 */
public final class Daemon {
    private static final Logger LOG = LoggerFactory.getLogger("leasecron.daemon");
    /** After the grace, rounds cut short get this long to wind down before the process exits anyway. */
    private static final Duration WIND_DOWN = Duration.ofSeconds(5);
    private static final Duration CONFIG_POLL = Duration.ofSeconds(2);
    /** Four times the dispatcher's longest wait between turns: a loop that long without a turn is stuck. */
    private static final Duration STUCK_AFTER = Duration.ofMinutes(2);

    private final JobsConfig initial;
    private final Path configFile;
    private final ConfigLoader loader;
    private final JobRegistry registry;
    private final LeaseTimings timings;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private volatile boolean running = true;
    /** The scheduler once started, for the liveness probe; null before. */
    private volatile Scheduler scheduler;
    /** The config in force: the one started with, then each edit applied; the dashboard shows its jobs. */
    private volatile JobsConfig current;
    /** Why the primary database carries no leases; null while it does (or is not known yet). */
    private volatile UnsupportedDatabaseException withoutLeases;

    public Daemon(JobsConfig config, Path configFile, ConfigLoader loader, JobRegistry registry, LeaseTimings timings) {
        this.initial = Objects.requireNonNull(config);
        this.current = config;
        this.configFile = configFile;
        this.loader = loader;
        this.registry = registry;
        this.timings = timings;
    }

    /** Asks the daemon to shut down; {@link #run()} returns once it has. */
    public void stop() {
        stopRequested.countDown();
    }

    /**
     * Runs until {@link #stop()}.
     *
     * @throws StartRefusedException a database cannot be opened, or the primary database cannot carry
     *     leases and a job is cluster-wide
     * @throws ConfigException the jobs file became invalid between its loading and the watcher's start
     */
    public void run() throws InterruptedException, IOException, ConfigException {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SchedulerMetrics metrics = new SchedulerMetrics(prometheus);
        metrics.configLoaded(Instant.now());
        MetricsListener listener = new MetricsListener(metrics);
        Event.of(Events.PLUGINS_LOADED).with("sources", registry.sources()).info(LOG);
        try (InstanceName instance = InstanceName.hold(initial.instance(), Path.of(System.getProperty("java.io.tmpdir")));
                Databases databases = Databases.open(initial.database(), configFile.toAbsolutePath().getParent())) {
            Leases leases = Leases.named(databases.shared(), timings, instance.name(), listener);
            // Readiness asks the database in the background, as often as a holder renews, so /readyz
            // answers from the last result at once, never after the pool's 5 s wait for a connection.
            // A check that has not answered within a renewal attempt's wait (5 s) reads as down: the
            // database has been silent for as long as the protocol waits for it, and a failover's gap
            // with no primary shows, where the pool's wait would outlast it and hide it.
            try (CachedHealthCheck readiness = CachedHealthCheck.start(
                            () -> withoutLeases != null || leases.ready() ? Health.up()
                                    : Health.down("database unreachable or lease table not ready"),
                            timings.renewInterval(), timings.renewInterval().plus(timings.attemptTimeout()));
                    OpsServer ops = OpsServer.start(initial.httpAddress(), initial.httpPort(),
                            this::liveness, readiness, prometheus, webRoutes(leases))) {
                List<ScheduledJob> jobs = ScheduledJobs.of(initial, registry);
                leases.keepHistory(initial.history().enabled());
                if (!initialize(leases, jobs)) {
                    return;
                }
                GuardedTransactions transactions =
                        new GuardedTransactions(leases, databases.shared(), databases.othersAsDataSources());
                Scheduler scheduler = withoutLeases == null ? new Scheduler(leases, transactions, listener)
                        : Scheduler.withoutLeases(leases, transactions, listener);
                scheduler.start(jobs);
                this.scheduler = scheduler;
                HistoryPurger purger = new HistoryPurger(leases, initial.history(), metrics, HistoryPurger.PAUSE);
                if (withoutLeases == null && initial.history().enabled()) {
                    purger.start();
                }
                metrics.jobsLoaded(jobs.size());
                Event.of(Events.DAEMON_STARTED).with("instance", leases.instance()).with("jobs", jobs.size())
                        .with("database", withoutLeases == null ? leases.databaseKind()
                                : withoutLeases.productName())
                        .with("http_port", ops.port()).with("admin_api", !initial.adminToken().isEmpty())
                        .with("config", configFile.toString())
                        .with("settings", scheduler.settings().describe())
                        .with("history", historySettings(initial.history(), withoutLeases == null)).info(LOG);
                try (ConfigWatcher watcher = ConfigWatcher.start(configFile, loader, reloads(scheduler, metrics), CONFIG_POLL)) {
                    stopRequested.await();
                }
                running = false;
                purger.stop();
                Event.of(Events.DAEMON_STOPPING).with("rounds_running", scheduler.roundsRunning())
                        .with("grace", initial.shutdownGrace().toString()).info(LOG);
                boolean clean = scheduler.shutdown(initial.shutdownGrace(), WIND_DOWN);
                Event.of(Events.DAEMON_STOPPED).with("clean", clean).info(LOG);
            }
        }
    }

    /**
     * The dashboard and, with an admin token, the admin API acting through {@link JobActions}. The token
     * is the one of the config started with: a changed token applies at the next start.
     */
    private Consumer<RoutesConfig> webRoutes(Leases leases) {
        AdminApi admin = new AdminApi(AdminToken.of(initial.adminToken()), JobControlPort.of(new JobActions(leases, () -> current.jobs())));
        Dashboard dashboard = new Dashboard(new ReadModel(() -> current.jobs(), leases, Clock.systemUTC()), admin.enabled());
        return dashboard.andThen(admin);
    }

    /**
     * Waits for the database and the lease table; false when stopped first. A primary database that
     * cannot carry leases (ClickHouse) runs a file of jobs of {@code scope: replica}, which need none,
     * and refuses one with a cluster-wide job, as the lease protocol asks: at start, not by running
     * every replica as if it were alone.
     *
     * A database that refuses this replica's credentials, or has no database by the URL's name, stops
     * the start: waiting cannot fix it. One that does not answer is waited for, as it may start later.
     *
     * @throws StartRefusedException the database cannot carry leases and a job is cluster-wide, or it
     *     refused the credentials or the database name
     */
    private boolean initialize(Leases leases, List<ScheduledJob> jobs) throws InterruptedException {
        while (true) {
            try {
                leases.initialize();
                return true;
            } catch (UnsupportedDatabaseException e) {
                List<String> clusterWide = jobs.stream().filter(ScheduledJob::clusterWide).map(ScheduledJob::name).toList();
                if (!clusterWide.isEmpty()) {
                    throw new StartRefusedException(e.getMessage() + "; " + (clusterWide.size() == 1 ? "job " : "jobs ")
                            + String.join(", ", clusterWide) + (clusterWide.size() == 1 ? " is" : " are")
                            + " cluster-wide (scope: cluster is the default) and would run under leases: give every"
                            + " job scope: replica to run it on every replica without one", e);
                }
                withoutLeases = e;
                Event.of(Events.DAEMON_WITHOUT_LEASES).with("database", e.productName())
                        .with("reason", "the primary database cannot carry leases: jobs of scope: replica run,"
                                + " due by this process's clock").info(LOG);
                return true;
            } catch (LeaseDatabaseException e) {
                Optional<String> refusal = ConnectionFailures.permanent(e);
                if (refusal.isPresent()) {
                    throw new StartRefusedException("the primary database at " + initial.database().primary().maskedUrl()
                            + " refused this replica: " + refusal.get() + "; retrying cannot fix that: check database.url,"
                            + " username and password in " + configFile, null);
                }
                Event.of(Events.DATABASE_UNAVAILABLE).with("error", e.getMessage())
                        .with("retry_in", leases.retryInterval().toString()).warn(LOG);
                if (stopRequested.await(leases.retryInterval().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    return false;
                }
            }
        }
    }

    /**
     * Alive unless shutting down or the scheduler is stuck: its dispatcher not round its loop for
     * {@link #STUCK_AFTER}. While the database is being opened, before the scheduler starts, alive.
     */
    private Health liveness() {
        if (!running) {
            return Health.down("shutting down");
        }
        Scheduler s = scheduler;
        return s == null ? Health.up() : s.stuck(STUCK_AFTER).map(Health::down).orElse(Health.up());
    }

    /** The history's settings as {@code daemon.started} logs them. */
    static java.util.Map<String, Object> historySettings(dev.leasecron.config.HistorySpec h, boolean withLeases) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("enabled", h.enabled() && withLeases);
        m.put("retain", h.retain().toString());
        m.put("max_rows_per_job", h.maxRowsPerJob());
        return m;
    }

    private ConfigListener reloads(Scheduler scheduler, SchedulerMetrics metrics) {
        return new ConfigListener() {
            @Override
            public void onReload(JobsConfig config) {
                if (!config.database().equals(initial.database()) || !config.instance().equals(initial.instance())
                        || !config.httpAddress().equals(initial.httpAddress()) || config.httpPort() != initial.httpPort()
                        || !config.adminToken().equals(initial.adminToken()) || !config.history().equals(initial.history())) {
                    Event.of(Events.CONFIG_RESTART_NEEDED)
                            .with("reason", "database, instance, http and history changes apply at the next start").warn(LOG);
                }
                List<ScheduledJob> jobs = ScheduledJobs.of(config, registry);
                try {
                    scheduler.apply(jobs);
                } catch (IllegalArgumentException e) {
                    // Without leases, a cluster-wide job added by an edit cannot run: the running jobs stay.
                    metrics.configRejected();
                    Event.of(Events.CONFIG_REJECTED).with("errors", List.of(e.getMessage()))
                            .with("kept", "the running jobs stay as they were").error(LOG);
                    return;
                }
                current = config;
                metrics.jobsLoaded(jobs.size());
                metrics.configApplied(Instant.now());
                Event.of(Events.CONFIG_RELOADED).with("jobs", jobs.size()).info(LOG);
            }

            @Override
            public void onRejected(List<ConfigError> errors) {
                metrics.configRejected();
                Event.of(Events.CONFIG_REJECTED).with("errors", errors.stream().map(ConfigError::toString).toList())
                        .with("kept", "the running jobs stay as they were").error(LOG);
            }

            @Override
            public void onRestored() {
                metrics.configRestored();
                Event.of(Events.CONFIG_RESTORED).info(LOG);
            }
        };
    }
}
