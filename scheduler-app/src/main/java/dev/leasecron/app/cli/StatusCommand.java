package dev.leasecron.app.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.leasecron.app.db.Pools;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.DataSourceSpec;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.config.JobsConfig;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.UnsupportedDatabaseException;
import dev.leasecron.lease.sql.LeaseRow;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code leasecron status --config FILE}: the lease row of every job of the file, read from the
 * primary database and judged by its clock: who holds it, the term, the last instant on record, an
 * unfinished or rerun instant, and when the lease expires.
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Shows each job's lease row, judged by the database clock."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:shown", "1:the jobs file has errors, or the database could not be read", "2:wrong usage"})
final class StatusCommand implements Callable<Integer> {
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
        Optional<JobsConfig> loaded = config.load(new ConfigLoader(context.environment(), JobTypeChecker.acceptAny()), err);
        if (loaded.isEmpty()) {
            return 1;
        }
        JobsConfig jobs = loaded.get();
        DataSourceSpec primary = jobs.database().primary();
        try (HikariDataSource pool = Pools.open("status", primary.url(), primary.username().orElse(null),
                primary.password().reveal(), 1)) {
            Leases leases = Leases.create(pool, LeaseTimings.DEFAULT, jobs.instance(), LeaseListener.NONE);
            leases.initialize();
            Map<String, LeaseRow> rows = leases.rows(jobs.jobs().stream().map(JobSpec::leaseName).toList()).stream()
                    .collect(Collectors.toMap(LeaseRow::name, Function.identity()));
            Instant now = leases.readDatabaseClock();
            out.println("database " + primary.maskedUrl() + ", clock " + now);
            TextTable table = new TextTable("JOB", "HOLDER", "TERM", "LAST INSTANT", "UNFINISHED", "RERUN", "LEASE");
            for (JobSpec job : jobs.jobs()) {
                LeaseRow row = rows.get(job.leaseName());
                if (row == null) {
                    table.add(job.name(), "-", "-", "never ran", "-", "-", "-");
                } else {
                    table.add(job.name(), row.instance().isEmpty() ? "-" : row.instance(), Long.toString(row.term()),
                            instant(row.slotMs()), instant(row.unfinishedSlotMs()), instant(row.rerunSlotMs()), lease(row));
                }
            }
            table.print(out);
            return 0;
        } catch (LeaseDatabaseException | UnsupportedDatabaseException e) {
            err.println(e.getMessage());
            err.flush();
            return 1;
        }
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
