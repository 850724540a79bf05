package dev.leasecron.app.cli;

import dev.leasecron.app.control.JobActions;
import dev.leasecron.config.JobSpec;
import dev.leasecron.lease.Leases;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code leasecron suspend --config FILE JOB [--reason TEXT]}: suspends the job cluster-wide, straight
 * on the primary database. Every replica leaves its instants alone within one renew interval, each
 * recorded {@code suspended} in the history; a round running now runs to its end.
 */
@Command(
        name = "suspend",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Suspends a job on every replica: its instants are recorded suspended, not run, until resumed.",
                "A round running now runs to its end."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:suspended, or it already was", "1:the jobs file has errors, the job is not in it, or the"
                + " database could not be reached; nothing changed", "2:wrong usage"})
final class SuspendCommand extends JobControlCommand {
    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, shown by status to the other operators.")
    String reason;

    SuspendCommand(CliContext context) {
        super(context);
    }

    @Override
    int act(JobActions actions, JobSpec job, String requester, Leases leases, PrintWriter out) {
        if (actions.suspend(job.name(), requester, reason)) {
            out.println("suspended " + job.name() + " (" + StatusCommand.suspendedBy(requester, reason)
                    + "): every replica leaves its instants alone within " + Ages.of(leases.timings().renewInterval())
                    + "; a round running now runs to its end");
            return 0;
        }
        actions.suspension(job.name()).ifPresentOrElse(
                s -> out.println(job.name() + " was already suspended (" + StatusCommand.suspendedBy(s.by(), s.reason()) + ", since "
                        + s.since() + "); left as it was"),
                () -> out.println(job.name() + " was already suspended; left as it was"));
        return 0;
    }
}
