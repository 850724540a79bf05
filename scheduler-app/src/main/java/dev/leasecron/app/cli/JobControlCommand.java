package dev.leasecron.app.cli;

import dev.leasecron.app.control.JobActions;
import dev.leasecron.app.control.UnknownJobException;
import dev.leasecron.app.db.SqliteFiles;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.DataSourceSpec;
import dev.leasecron.config.DatabaseSpec;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.config.JobsConfig;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.UnsupportedDatabaseException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * What {@code suspend} and {@code resume} share: the jobs file read (a file with any error changes
 * nothing), the job looked up in it, the primary database opened as {@code status} opens it (never
 * created: a database no replica has started on is reported, not set up), and the action taken
 * through {@link JobActions}, which logs it. The requester is {@code cli:} and the operating-system
 * user.
 */
abstract class JobControlCommand implements Callable<Integer> {
    @Mixin
    ConfigFileOption config;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "JOB", description = "The job's name in the jobs file.")
    String job;

    private final CliContext context;

    JobControlCommand(CliContext context) {
        this.context = context;
    }

    /**
     * Takes the action on {@code job} and tells {@code out} what came of it.
     *
     * @return the exit status
     */
    abstract int act(JobActions actions, JobSpec job, String requester, Leases leases, PrintWriter out);

    @Override
    public final Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<JobsConfig> loaded = config.load(new ConfigLoader(context.environment(), JobTypeChecker.acceptAny()), err);
        if (loaded.isEmpty()) {
            return fail(err, "nothing changed: " + config.file + " has errors");
        }
        JobsConfig jobs = loaded.get();
        Optional<JobSpec> spec = jobs.jobs().stream().filter(j -> j.name().equals(job)).findFirst();
        if (spec.isEmpty()) {
            return fail(err, "no job named '" + job + "' in " + config.file);
        }
        DatabaseSpec database = jobs.database();
        DataSourceSpec primary = CliDatabase.primary(database, config.file);
        String where = "database " + primary.maskedUrl();
        Optional<Path> file = SqliteFiles.file(primary.url());
        if (file.isPresent() && !Files.exists(file.get())) {
            return fail(err, where + ": nothing there yet: no file " + file.get().toAbsolutePath()
                    + " (leasecron run creates it); nothing changed");
        }
        try {
            Leases leases = Leases.create(StatusCommand.readOnly(primary), LeaseTimings.DEFAULT, jobs.instance(),
                    LeaseListener.NONE);
            if (!leases.openExisting()) {
                return fail(err, where + ": nothing there yet: no lease table (leasecron run creates it); nothing changed");
            }
            int status = act(JobActions.of(leases, jobs.jobs()), spec.get(), requester(), leases, out);
            out.flush();
            return status;
        } catch (UnknownJobException e) {
            return fail(err, e.getMessage());
        } catch (LeaseDatabaseException | UnsupportedDatabaseException e) {
            return fail(err, where + ": " + e.getMessage());
        }
    }

    /** Who asks, as the events and the suspension record it. */
    static String requester() {
        return "cli:" + System.getProperty("user.name", "unknown");
    }

    private static int fail(PrintWriter err, String message) {
        err.println(message);
        err.flush();
        return 1;
    }
}
