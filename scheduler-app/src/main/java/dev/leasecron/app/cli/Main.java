package dev.leasecron.app.cli;

import dev.leasecron.app.logging.LogFormat;
import dev.leasecron.app.logging.LoggingSetup;
import dev.leasecron.app.plugins.JobRegistry;
import java.time.Clock;
import java.util.Map;
import picocli.CommandLine;

/**
 * Entry point of {@code leasecron.jar}: builds the {@code leasecron} command with its subcommands
 * and exits with the subcommand's status. A new subcommand (the daemon's {@code run}, {@code status})
 * is a sibling class added in {@link #commandLine(CliContext)}.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        CliContext context = systemContext();
        System.exit(execute(commandLine(context), args, context.environment()));
    }

    /**
     * Sets up logging to stderr in the format {@code LEASECRON_LOG_FORMAT} names (the daemon's
     * {@code run} moves it to stdout), then runs {@code args}. A variable naming no format is a usage
     * mistake, whatever the command: one line and status 2.
     */
    static int execute(CommandLine commandLine, String[] args, Map<String, String> environment) {
        LogFormat format;
        try {
            format = LogFormat.fromEnvironment(environment);
        } catch (IllegalArgumentException e) {
            commandLine.getErr().println("environment variable " + LogFormat.ENVIRONMENT_VARIABLE + ": " + e.getMessage());
            commandLine.getErr().flush();
            return CommandLine.ExitCode.USAGE;
        }
        LoggingSetup.configureForCommand(format);
        return commandLine.execute(args);
    }

    /** The whole command tree over {@code context}; tests call it with their own context and writers. */
    static CommandLine commandLine(CliContext context) {
        return new CommandLine(new LeasecronCommand())
                .addSubcommand(new ValidateCommand(context))
                .addSubcommand(new NextCommand(context))
                .addSubcommand(new RunCommand(context))
                .addSubcommand(new StatusCommand(context))
                .addSubcommand(new HistoryCommand(context))
                .addSubcommand(new TriggerCommand(context))
                .addSubcommand(new SuspendCommand(context))
                .addSubcommand(new ResumeCommand(context));
    }

    private static CliContext systemContext() {
        return new CliContext(System.getenv(), Clock.systemUTC(), JobRegistry::load);
    }
}
