package dev.leasecron.app.cli;

import dev.leasecron.config.JobTypeChecker;
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
        System.exit(commandLine(systemContext()).execute(args));
    }

    /** The whole command tree over {@code context}; tests call it with their own context and writers. */
    static CommandLine commandLine(CliContext context) {
        return new CommandLine(new LeasecronCommand())
                .addSubcommand(new ValidateCommand(context))
                .addSubcommand(new NextCommand(context));
    }

    private static CliContext systemContext() {
        // Plugin types are not checked yet: the plugin loader (dev.leasecron.app.plugins) will supply
        // the checker here. Until then the daemon is the one to refuse an unknown type.
        return new CliContext(System.getenv(), Clock.systemUTC(), JobTypeChecker.acceptAny());
    }
}
