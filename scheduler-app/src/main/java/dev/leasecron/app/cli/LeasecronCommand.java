package dev.leasecron.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code leasecron} command: it only groups the subcommands that {@link Main} registers. */
@Command(
        name = "leasecron",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "A distributed cron scheduler: one SQL database, many replicas, each instant run once.",
        commandListHeading = "%nCommands:%n")
final class LeasecronCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        // No subcommand is a usage mistake: show what there is.
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }
}
