package dev.leasecron.app.cli;

import com.zaxxer.hikari.util.DriverDataSource;
import dev.leasecron.app.db.SqliteFiles;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.DataSourceSpec;
import dev.leasecron.config.DatabaseSpec;
import dev.leasecron.config.HistorySpec;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.config.UsableConfig;
import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.UnsupportedDatabaseException;
import dev.leasecron.lease.LeaseRow;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.Suspension;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code leasecron status --config FILE}: the lease row of every job of the file, read from the
 * primary database and judged by its clock: the next instant, the last round's outcome and its age
 * (from the round history), whether a round runs now (ACTIVE, a manual one too), whether an operator
 * suspended the job and who and why (SUSPEND), who holds the lease, the term, the last instant on
 * record, an unfinished or rerun instant, and when the lease expires.
 *
 * <p>It only reads: a database without the lease table, or an SQLite file that does not exist, is
 * reported as having nothing yet, never created. A relative SQLite file is found beside the jobs
 * file, as {@code run} finds it ({@link SqliteFiles}).
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Shows each job's lease row, judged by the database clock."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:shown", "1:the jobs file has errors (the sound jobs are still shown), or the database could"
                + " not be read", "2:wrong usage"})
final class StatusCommand implements Callable<Integer> {
    /** SQLite's flag to open a file for reading and writing, alone: without SQLITE_OPEN_CREATE (4). */
    private static final int SQLITE_OPEN_READWRITE = 2;

    @Mixin
    ConfigFileOption config;

    @Spec
    CommandSpec spec;

    private final CliContext context;

    StatusCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        UsableConfig usable = new ConfigLoader(context.environment(), JobTypeChecker.acceptAny()).loadUsable(config.file);
        // A mistake in one job hides only that job: the others' rows are still worth showing.
        usable.errors().forEach(err::println);
        err.flush();
        if (usable.database().isEmpty()) {
            return 1;
        }
        int found = usable.errors().isEmpty() ? 0 : 1;
        DatabaseSpec database = usable.database().get();
        DataSourceSpec primary = CliDatabase.primary(database, config.file);
        String where = "database " + primary.maskedUrl();
        Optional<Path> file = SqliteFiles.file(primary.url());
        if (file.isPresent() && !Files.exists(file.get())) {
            out.println(where + ": nothing there yet: no file " + file.get().toAbsolutePath()
                    + " (leasecron run creates it)");
            return found;
        }
        try {
            Leases leases = Leases.create(readOnly(primary), LeaseTimings.DEFAULT, usable.instance().orElse("status"),
                    LeaseListener.NONE);
            if (!leases.openExisting()) {
                out.println(where + ": nothing there yet: no lease table (leasecron run creates it)");
                return found;
            }
            Map<String, LeaseRow> rows = leases.views().rows(usable.jobs().stream().map(JobSpec::leaseName).toList()).stream()
                    .collect(Collectors.toMap(LeaseRow::name, Function.identity()));
            Instant now = leases.readDatabaseClock();
            Map<String, HistoryEntry> last = usable.history().map(HistorySpec::enabled).orElse(false)
                    && !usable.jobs().isEmpty() && leases.history().exists()
                    ? leases.history().lastEnded(usable.jobs().stream().map(JobSpec::leaseName).toList())
                    : Map.of();
            Map<String, Suspension> suspended = leases.controls().suspensions(
                    usable.jobs().stream().map(JobSpec::leaseName).toList());
            Map<String, RunRequest> manual = leases.controls().runningManualRounds(
                    usable.jobs().stream().map(JobSpec::leaseName).toList());
            out.println(where + ", clock " + now);
            TextTable table = new TextTable("JOB", "NEXT", "LAST", "ACTIVE", "SUSPEND", "HOLDER", "TERM", "LAST INSTANT",
                    "UNFINISHED", "RERUN", "LEASE");
            for (JobSpec job : usable.jobs()) {
                LeaseRow row = rows.get(job.leaseName());
                String next = next(job, now);
                String lastOutcome = Optional.ofNullable(last.get(job.leaseName())).map(e -> lastOutcome(e, now)).orElse("-");
                String suspend = Optional.ofNullable(suspended.get(job.leaseName()))
                        .map(s -> "yes (" + suspendedBy(s.by(), s.reason()) + ")").orElse("-");
                if (row == null) {
                    table.add(job.name(), next, lastOutcome, "0", suspend, "-", "-", "never ran", "-", "-", "-");
                } else {
                    table.add(job.name(), next, lastOutcome, active(row, manual.get(job.leaseName())), suspend,
                            row.instance().isEmpty() ? "-" : row.instance(), Long.toString(row.term()),
                            instant(row.slotMs()), instant(row.unfinishedSlotMs()), instant(row.rerunSlotMs()), lease(row));
                }
            }
            table.print(out);
            return found;
        } catch (LeaseDatabaseException | UnsupportedDatabaseException e) {
            err.println(where + ": " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    /**
     * Connections opened one at a time, without a pool: the command reads a few rows and exits, and a
     * connection that fails says why at once, where a pool would first wait out its timeout. An
     * SQLite file is opened for reading and writing but never created ({@code open_mode} without
     * {@code SQLITE_OPEN_CREATE}), and nothing is written to it.
     */
    static DataSource readOnly(DataSourceSpec source) {
        Properties properties = new Properties();
        if (source.url().startsWith("jdbc:sqlite:")) {
            properties.setProperty("open_mode", Integer.toString(SQLITE_OPEN_READWRITE));
            // A running daemon may be writing: wait for its lock as the daemon's own pool does.
            properties.setProperty("busy_timeout", "5000");
        }
        try {
            return new DriverDataSource(source.url(), null, properties, source.username().orElse(null),
                    source.password().isEmpty() ? null : source.password().reveal());
        } catch (RuntimeException e) {
            // Its message holds the URL as written, password and all.
            throw new LeaseDatabaseException("no JDBC driver here takes the URL", null);
        }
    }

    /** The job's next instant by the database clock, and how far off it is. */
    private static String next(JobSpec job, Instant now) {
        if (!job.enabled()) {
            return "disabled";
        }
        return job.schedule().next(now).map(z -> z.toInstant() + " (in " + Ages.of(Duration.between(now, z.toInstant())) + ")")
                .orElse("none");
    }

    /** {@code ok 12s ago}: the last round that ended, and when it ended (or its instant, when its end is not known). */
    static String lastOutcome(HistoryEntry e, Instant now) {
        Instant at = e.ended().or(e::started).orElse(e.instant());
        return e.outcome().label() + " " + Ages.ago(Duration.between(at, now));
    }

    /** {@code cli:alice: db migration}: who suspended a job, and why when they said. */
    static String suspendedBy(String by, String reason) {
        String why = reason == null ? "" : HistoryCommand.oneLine(reason);
        return by + (why.isEmpty() || why.equals("-") ? "" : ": " + why);
    }

    /**
     * {@code 1} when a round runs now: a manual one (it is no instant, so only its request says so), or
     * one whose instant has not run to its end while the lease holds.
     */
    private static String active(LeaseRow row, RunRequest manual) {
        if (manual != null) {
            return "1 (run now, asked by " + manual.requestedBy() + ")";
        }
        return row.unfinishedSlotMs() != 0 && row.held() ? "1" : "0";
    }

    private static String instant(long ms) {
        return ms == 0 ? "-" : Instant.ofEpochMilli(ms).toString();
    }

    private static String lease(LeaseRow row) {
        if (row.expiresAtMs() == 0) {
            return "released";
        }
        Duration left = Duration.ofMillis(row.expiresAtMs() - row.nowMs());
        return left.isNegative() || left.isZero()
                ? "expired " + left.negated().toSeconds() + "s ago"
                : "held, expires in " + Math.max(1, left.toMillis() / 1000) + "s";
    }
}
