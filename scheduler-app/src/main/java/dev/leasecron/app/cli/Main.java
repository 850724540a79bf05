package dev.leasecron.app.cli;

import dev.leasecron.app.logging.LogFormat;
import dev.leasecron.app.logging.LoggingSetup;
import dev.leasecron.app.plugins.JobRegistry;
import java.time.Clock;
import picocli.CommandLine;

/**
 * Entry point of {@code leasecron.jar}: builds the {@code leasecron} command with its subcommands
 * and exits with the subcommand's status. A new subcommand (the daemon's {@code run}, {@code status})
 * is a sibling class added in {@link #commandLine(CliContext)}.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        LoggingSetup.configure(LogFormat.fromEnvironment());
        System.exit(commandLine(systemContext()).execute(args));
    }

    /** The whole command tree over {@code context}; tests call it with their own context and writers. */
    static CommandLine commandLine(CliContext context) {
        return new CommandLine(new LeasecronCommand())
                .addSubcommand(new ValidateCommand(context))
                .addSubcommand(new NextCommand(context))
                .addSubcommand(new RunCommand(context))
                .addSubcommand(new StatusCommand(context));
    }

    private static CliContext systemContext() {
        return new CliContext(System.getenv(), Clock.systemUTC(), JobRegistry::load);
    }
}
