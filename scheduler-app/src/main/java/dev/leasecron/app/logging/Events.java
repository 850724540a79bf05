package dev.leasecron.app.logging;

/**
 * The names of the daemon's log events, the values of the {@code event} field. Operators filter and
 * alert on them, so a name, once released, does not change.
 */
public final class Events {
    private Events() {}

    /** The daemon is up: config loaded, jobs scheduled. */
    public static final String DAEMON_STARTED = "daemon.started";
    /**
     * The primary database cannot carry leases (ClickHouse) and every job is of scope: replica: they
     * run, due by the process clock, and nothing is claimed.
     */
    public static final String DAEMON_WITHOUT_LEASES = "daemon.without_leases";
    /** The daemon received SIGTERM and stops claiming; running rounds get their grace. */
    public static final String DAEMON_STOPPING = "daemon.stopping";
    /** A round starts: job, instant, term, holder, instance, rerun. */
    public static final String ROUND_START = "round.start";
    /** A round ended: its start fields plus outcome, duration_ms and error. */
    public static final String ROUND_END = "round.end";
    /** Instants that passed while a round overran, not run: job, count, next instant. */
    public static final String INSTANT_SKIPPED = "instant.skipped";
    /** An instant whose slot a later instant took before it ran. */
    public static final String INSTANT_SUPERSEDED = "instant.superseded";
    /** An instant of a suspended job, claimed and finished without running: job, instant, suspended_by, reason. */
    public static final String INSTANT_SUSPENDED = "instant.suspended";
    /** An operator suspended a job: job, requester, reason. Its instants are recorded suspended until resumed. */
    public static final String JOB_SUSPENDED = "job.suspended";
    /** An operator resumed a suspended job: job, requester. Its next instant runs. */
    public static final String JOB_RESUMED = "job.resumed";
    /** A missed instant run at start-up (catch-up). */
    public static final String INSTANT_CAUGHT_UP = "instant.caught_up";
    /** A lease renewal failed; the lease is still held until its local deadline. */
    public static final String LEASE_RENEW_FAILED = "lease.renew_failed";
    /** A lease was lost: the round running under it is cut short. */
    public static final String LEASE_LOST = "lease.lost";
    /** A changed jobs YAML was loaded and applied. */
    public static final String CONFIG_RELOADED = "config.reloaded";
    /** A changed jobs YAML was invalid and ignored; the previous config stays in force. */
    public static final String CONFIG_REJECTED = "config.rejected";
    /** The jobs YAML holds the config in force again after a rejected edit: what was rejected no longer stands. */
    public static final String CONFIG_RESTORED = "config.restored";
    /** The job types were loaded: which types, from where ({@code JobRegistry.sources()}). */
    public static final String PLUGINS_LOADED = "plugins.loaded";
    /** Instants that ran on no replica and never will: job, first, last, count, reason. */
    public static final String INSTANT_MISSED = "instant.missed";
    /** An instant whose claim the database did not answer before the job's next instant came. */
    public static final String INSTANT_UNCLAIMED = "instant.unclaimed";
    /** A claim the database did not answer, tried again after the retry interval. */
    public static final String CLAIM_FAILED = "claim.failed";
    /** A round still runs at its job's next instant, which it overruns. */
    public static final String ROUND_OVERRUN = "round.overrun";
    /** The end of a round could not be recorded: its lease expires and the instant runs again. */
    public static final String ROUND_FINISH_FAILED = "round.finish_failed";
    /** The lease of a round cut short could not be given back: it expires on its own. */
    public static final String ROUND_RELEASE_FAILED = "round.release_failed";
    /** A job's schedule has no further instant: the job stops. */
    public static final String SCHEDULE_EXHAUSTED = "schedule.exhausted";
    /** The scheduling of a job stopped on an unexpected error. */
    public static final String JOB_CRASHED = "job.crashed";
    /** A read the scheduler needs failed; tried again after the retry interval. */
    public static final String DATABASE_UNAVAILABLE = "database.unavailable";
    /**
     * An operator asked for a run of a job now (command line or HTTP API): job, request_id,
     * requested_by, and whether the request is new or one recorded before under the same id.
     */
    public static final String JOB_TRIGGERED = "job.triggered";
    /** The look for requests to run a job now failed; tried again after the renew interval. */
    public static final String RUN_REQUESTS_FAILED = "run_requests.failed";
    /** The look for instants cut short failed; tried again after the retry interval. */
    public static final String RERUN_SWEEP_FAILED = "rerun.sweep_failed";
    /** Rounds still running after the shutdown grace are cut short. */
    public static final String DAEMON_CUTTING_SHORT = "daemon.cutting_short";
    /** The dispatcher of instants failed on an unexpected error; it goes on after the retry interval. */
    public static final String DISPATCHER_FAILED = "dispatcher.failed";
    /** The daemon stopped: whether every round ended in time ({@code clean}). */
    public static final String DAEMON_STOPPED = "daemon.stopped";
    /** A changed setting of the jobs file takes effect only at the next start. */
    public static final String CONFIG_RESTART_NEEDED = "config.restart_needed";
    /** Statements writing the round history failed (logged once per burst, with how many); rounds were unaffected. */
    public static final String HISTORY_WRITE_FAILED = "history.write_failed";
    /** The history's purger deleted rows past the retention or beyond the per-job cap. */
    public static final String HISTORY_PURGED = "history.purged";
    /** A pass of the history's purger failed; it tries again at its next pass. */
    public static final String HISTORY_PURGE_FAILED = "history.purge_failed";
    /**
     * A state-changing HTTP request refused for its token: status 401 (none) or 403 (not the admin
     * token, logged as a warning), method, path, remote address. The token is never logged.
     */
    public static final String ADMIN_REFUSED = "admin.refused";
}
