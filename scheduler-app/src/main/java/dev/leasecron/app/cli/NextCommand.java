package dev.leasecron.app.cli;

import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobsConfig;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobTypeChecker;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code leasecron next --config FILE [--count N] [--from INSTANT]}: each job's next instants in its
 * own zone and in UTC, as the daemon will compute them (daylight-saving rule included). Reads files
 * only; never opens a database.
 */
@Command(
        name = "next",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Prints each job's next instants, in its time zone and in UTC.",
            "Reads the jobs file only (job types are checked by validate); never opens a database.",
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:instants printed", "1:the file has errors (listed on stderr)", "2:wrong usage"})
final class NextCommand implements Callable<Integer> {
    private static final int MAX_COUNT = 1000;

    @Mixin
    ConfigFileOption config;

    @Option(names = {"-n", "--count"}, paramLabel = "N", defaultValue = "5",
            description = "How many instants per job (1-" + MAX_COUNT + ", default ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--from", paramLabel = "INSTANT", converter = IsoInstantConverter.class,
            description = "Start strictly after this ISO-8601 instant, e.g. 2026-03-08T00:00:00Z (default: now).")
    Instant from;

    @Spec
    CommandSpec spec;

    private final CliContext context;

    NextCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if (count < 1 || count > MAX_COUNT) {
            throw new ParameterException(spec.commandLine(), "--count must be between 1 and " + MAX_COUNT + ", was " + count);
        }
        PrintWriter out = spec.commandLine().getOut();
        Optional<JobsConfig> loaded = config.load(new ConfigLoader(context.environment(), JobTypeChecker.acceptAny()), spec.commandLine().getErr());
        if (loaded.isEmpty()) {
            return 1;
        }
        Instant start = from != null ? from : context.clock().instant();
        TextTable table = new TextTable("JOB", "SCHEDULE", "IN ITS ZONE", "UTC");
        for (JobSpec job : loaded.get().jobs()) {
            String name = job.enabled() ? job.name() : job.name() + " (disabled)";
            Instant cursor = start;
            for (int i = 0; i < count; i++) {
                Optional<ZonedDateTime> next = job.schedule().next(cursor);
                if (next.isEmpty()) {
                    table.add(name, job.schedule().expression(), "no further instant", "");
                    break;
                }
                table.add(name, job.schedule().expression(), Instants.inZone(next.get()), Instants.utc(next.get().toInstant()));
                cursor = next.get().toInstant();
            }
        }
        table.print(out);
        return 0;
    }
}
