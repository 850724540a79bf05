package dev.leasecron.app.cli;

import dev.leasecron.app.control.JobActions;
import dev.leasecron.config.JobSpec;
import dev.leasecron.lease.Leases;
import java.io.PrintWriter;
import java.time.Instant;
import picocli.CommandLine.Command;

/**
 * {@code leasecron resume --config FILE JOB}: ends the job's suspension, straight on the primary
 * database; its next instant runs, on whichever replica claims it. The instants that came while it
 * was suspended stay suspended: none is caught up.
 */
@Command(
        name = "resume",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Resumes a suspended job: its next instant runs. Instants suspended meanwhile are not run."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:resumed, or it was not suspended", "1:the jobs file has errors, the job is not in it, or the"
                + " database could not be reached; nothing changed", "2:wrong usage"})
final class ResumeCommand extends JobControlCommand {

    ResumeCommand(CliContext context) {
        super(context);
    }

    @Override
    int act(JobActions actions, JobSpec job, String requester, Leases leases, PrintWriter out) {
        if (!actions.resume(job.name(), requester)) {
            out.println(job.name() + " was not suspended");
            return 0;
        }
        if (!job.enabled()) {
            out.println("resumed " + job.name() + "; it is enabled: false in " + config.file + ", so it runs once enabled");
            return 0;
        }
        Instant now = leases.readDatabaseClock();
        out.println("resumed " + job.name() + ": its next instant runs"
                + job.schedule().next(now).map(z -> " (" + z.toInstant() + ")").orElse(""));
        return 0;
    }
}
