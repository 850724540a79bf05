package dev.leasecron.app.cli;

import dev.leasecron.app.control.JobActions;
import dev.leasecron.config.CatchUp;
import dev.leasecron.config.JobSpec;
import dev.leasecron.lease.Leases;
import java.io.PrintWriter;
import java.time.Instant;
import picocli.CommandLine.Command;

/**
 * {@code leasecron resume --config FILE JOB}: ends the job's suspension, straight on the primary
 * database; its next instant runs, on whichever replica claims it. A job of {@code catchUp: latest}
 * first runs its latest suspended instant, once, when it is recent enough (the replicas decide, see
 * {@code ResumeCatchUp}); the other instants that came while it was suspended stay suspended.
 */
@Command(
        name = "resume",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Resumes a suspended job: its next instant runs. With catchUp: latest, its latest suspended"
                + " instant runs first, once, if it is within 24h; the other suspended instants are not run."},
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
                + job.schedule().next(now).map(z -> " (" + z.toInstant() + ")").orElse("")
                + (job.catchUp() == CatchUp.LATEST ? "; its latest instant, if suspended within 24h, runs first (catchUp: latest)" : ""));
        return 0;
    }
}
