package dev.leasecron.app.cli;

import dev.leasecron.app.control.ActionRefusedException;
import dev.leasecron.app.control.JobActions;
import dev.leasecron.app.control.UnknownJobException;
import dev.leasecron.app.db.SqliteFiles;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.DataSourceSpec;
import dev.leasecron.config.DatabaseSpec;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.config.UsableConfig;
import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryQuery;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.RunRequestState;
import dev.leasecron.lease.UnsupportedDatabaseException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code leasecron trigger --config FILE JOB [--wait] [--request-id ID]}: asks for a run of JOB now,
 * on the primary database, as the operating-system user ({@code cli:USER}). A replica running the job
 * takes the request up within a renew interval, once no round of the job runs, and runs it once,
 * whichever replica and however often the request is sent under one id. With {@code --wait} the
 * command follows the request until its round ends and exits with its outcome.
 */
@Command(
        name = "trigger",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Runs a job now, once, on one replica, outside its schedule."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:requested (with --wait: the round ended ok)",
                "1:with --wait: the round failed, timed out or was cut short",
                "2:wrong usage",
                "3:not requested: unknown job, a job that cannot be triggered, an unusable jobs file or database",
                "4:with --wait: gave up waiting before the round ended (the request stands)"})
final class TriggerCommand implements Callable<Integer> {
    static final int FAILED = 1;
    static final int NOT_REQUESTED = 3;
    static final int GAVE_UP = 4;
    private static final Duration POLL = Duration.ofMillis(250);

    @Mixin
    ConfigFileOption config;

    @Parameters(index = "0", paramLabel = "JOB", description = "The job to run, by its name in the jobs file.")
    String job;

    @Option(names = "--wait", description = "Wait until the round ends and exit with its outcome.")
    boolean waitForEnd;

    @Option(names = "--request-id", paramLabel = "ID", description = "The request's id (default: a new UUID). Sent again,"
            + " the same id runs nothing more and reports the request on record: retry with it, or follow it with --wait.")
    String requestId;

    @Option(names = "--wait-timeout", paramLabel = "DURATION", converter = DurationConverter.class, description = "With --wait, give up after this long, such as"
            + " 90s or 5m (default: the job's timeout plus 1m, since the run may wait for a round of the job running now).")
    Duration waitTimeout;

    @Spec
    CommandSpec spec;

    private final CliContext context;

    TriggerCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<Duration> bound = Optional.ofNullable(waitTimeout);
        UsableConfig usable = new ConfigLoader(context.environment(), JobTypeChecker.acceptAny()).loadUsable(config.file);
        // A mistake in another job does not stop this one; the mistakes are shown all the same.
        usable.errors().forEach(err::println);
        err.flush();
        if (usable.database().isEmpty()) {
            return NOT_REQUESTED;
        }
        Optional<JobSpec> spec = usable.jobs().stream().filter(j -> j.name().equals(job)).findFirst();
        DatabaseSpec database = usable.database().get();
        DataSourceSpec primary = CliDatabase.primary(database, config.file);
        String where = "database " + primary.maskedUrl();
        Optional<Path> file = SqliteFiles.file(primary.url());
        if (spec.isPresent() && file.isPresent() && !Files.exists(file.get())) {
            return fail(err, where + ": no file " + file.get().toAbsolutePath() + ": no replica has started there"
                    + " (leasecron run creates it)");
        }
        try {
            Leases leases = Leases.create(StatusCommand.readOnly(primary), LeaseTimings.DEFAULT,
                    usable.instance().orElse("trigger"), LeaseListener.NONE);
            if (spec.isPresent() && !leases.openExisting()) {
                return fail(err, where + ": no lease table: no replica has started there (leasecron run creates it)");
            }
            RunRequest request = JobActions.of(leases, usable.jobs()).trigger(job, requestId, requester());
            out.println("run of " + job + " requested: request " + request.id() + ", " + describe(request));
            out.flush();
            if (!waitForEnd) {
                return 0;
            }
            Duration limit = bound.orElse(spec.map(JobSpec::timeout).orElse(Duration.ZERO).plusMinutes(1));
            return follow(leases, request, limit, out, err);
        } catch (UnknownJobException e) {
            return fail(err, e.getMessage() + " " + config.file + (usable.jobs().isEmpty() ? "" : "; its jobs: "
                    + String.join(", ", usable.jobs().stream().map(JobSpec::name).toList())));
        } catch (ActionRefusedException e) {
            return fail(err, "cannot trigger: " + e.getMessage());
        } catch (LeaseDatabaseException | UnsupportedDatabaseException e) {
            return fail(err, where + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(this.spec.commandLine(), e.getMessage());
        }
    }

    /** Follows {@code request} until it ends or {@code limit} passes, printing each state it reaches once. */
    private int follow(Leases leases, RunRequest request, Duration limit, PrintWriter out, PrintWriter err)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        RunRequestState shown = request.state();
        RunRequest now = request;
        while (now.state() != RunRequestState.ENDED) {
            if (System.nanoTime() - deadline >= 0) {
                err.println("gave up waiting after " + Ages.of(limit) + ": request " + now.id() + " is still "
                        + describe(now) + "; follow it with --request-id " + now.id() + " --wait");
                err.flush();
                return GAVE_UP;
            }
            Thread.sleep(POLL);
            now = leases.controls().runRequest(request.id()).orElse(now);
            if (now.state() != shown && now.state() == RunRequestState.RUNNING) {
                out.println(describe(now));
                out.flush();
            }
            shown = now.state();
        }
        HistoryOutcome outcome = now.outcome().orElse(HistoryOutcome.CUT_SHORT);
        Optional<HistoryEntry> row = historyRow(leases, now);
        String took = row.flatMap(HistoryEntry::duration).map(d -> " in " + Ages.of(d)).orElse("");
        String detail = row.map(HistoryEntry::detail).filter(d -> !d.isBlank()).map(d -> ": " + d).orElse("");
        out.println("ended " + outcome.label() + took + detail);
        out.flush();
        return outcome == HistoryOutcome.OK ? 0 : FAILED;
    }

    /** The history row of {@code request}'s round, for its duration and error; empty when the history is off. */
    private static Optional<HistoryEntry> historyRow(Leases leases, RunRequest request) {
        try {
            if (!leases.history().exists()) {
                return Optional.empty();
            }
            return leases.history().entries(new HistoryQuery(Set.of(request.name()), Set.of(),
                    Optional.of(request.requestedAt()), 50)).stream()
                    .filter(e -> e.term() == request.term() && e.instant().equals(request.requestedAt())).findFirst();
        } catch (LeaseDatabaseException e) {
            return Optional.empty(); // the outcome is known without it
        }
    }

    private static String describe(RunRequest r) {
        return switch (r.state()) {
            case PENDING -> "pending: a replica running the job takes it up within seconds, once no round of it runs";
            case RUNNING -> "running on " + r.instance().orElse("?") + " (term " + r.term() + ")";
            case ENDED -> "ended " + r.outcome().map(HistoryOutcome::label).orElse("?") + " on " + r.instance().orElse("?")
                    + " (term " + r.term() + ")";
        };
    }

    /** Who asks: the operating-system user, as the history and the {@code job.triggered} event record it. */
    private static String requester() {
        return "cli:" + System.getProperty("user.name", "unknown");
    }

    private static int fail(PrintWriter err, String message) {
        err.println(message);
        err.flush();
        return NOT_REQUESTED;
    }
}
