package dev.leasecron.app.cli;

import dev.leasecron.app.daemon.Daemon;
import dev.leasecron.app.daemon.StartRefusedException;
import dev.leasecron.app.logging.LogFormat;
import dev.leasecron.app.logging.LoggingSetup;
import dev.leasecron.app.ops.OpsBindException;
import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.PluginLoadException;
import dev.leasecron.config.ConfigException;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobsConfig;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.UnsupportedDatabaseException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

/**
 * {@code leasecron run --config FILE}: the daemon. SIGTERM and SIGINT shut it down the way an
 * orchestrator expects, and it then exits 0.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            // One element per paragraph: picocli wraps each at the usage width.
            "Runs the scheduler: each instant of each job on exactly one replica sharing the database.",
            "Logs one JSON object per line on stdout. SIGTERM stops claiming, lets running rounds end within the"
                    + " shutdown grace, cuts the rest short (a peer runs them again) and exits 0.",
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped by a signal", "1:the jobs file, a plugin or the database is unusable", "2:wrong usage",
            "70:work under a lost lease would not stop"})
final class RunCommand implements Callable<Integer> {
    @Mixin
    ConfigFileOption config;

    @Mixin
    PluginsOption plugins;

    @Option(names = "--log-format", paramLabel = "FORMAT", converter = LogFormatConverter.class,
            description = "json (default, or $LEASECRON_LOG_FORMAT) or console.")
    LogFormat logFormat;

    /** The protocol's timings hook, for tests that play it out in milliseconds. */
    @Option(names = "--lease-timings-ms", hidden = true, split = ",", paramLabel = "LEASE,RENEW,DEADLINE,GRACE")
    long[] leaseTimingsMs;

    @Spec
    CommandSpec spec;

    private final CliContext context;

    RunCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        // The daemon's logs are its output, on stdout; Main validated the variable already.
        LoggingSetup.configure(logFormat != null ? logFormat : LogFormat.fromEnvironment(context.environment()));
        try (JobRegistry registry = plugins.load(context)) {
            ConfigLoader loader = new ConfigLoader(context.environment(), PluginsOption.checker(registry));
            Optional<JobsConfig> loaded = config.load(loader, err);
            if (loaded.isEmpty()) {
                return 1;
            }
            Daemon daemon = new Daemon(loaded.get(), config.file, loader, registry, timings());
            Signal.handle(new Signal("TERM"), signal -> daemon.stop());
            Signal.handle(new Signal("INT"), signal -> daemon.stop());
            daemon.run();
            return 0;
        } catch (PluginLoadException | UnsupportedDatabaseException | StartRefusedException | OpsBindException e) {
            err.println(e.getMessage());
            err.flush();
            return 1;
        } catch (ConfigException e) {
            e.errors().forEach(err::println);
            err.flush();
            return 1;
        }
    }

    private LeaseTimings timings() {
        if (leaseTimingsMs == null) {
            return LeaseTimings.DEFAULT;
        }
        if (leaseTimingsMs.length != 4) {
            throw new IllegalArgumentException("--lease-timings-ms takes four values: lease, renew, deadline, grace");
        }
        return new LeaseTimings(Duration.ofMillis(leaseTimingsMs[0]), Duration.ofMillis(leaseTimingsMs[1]),
                Duration.ofMillis(leaseTimingsMs[2]), Duration.ofMillis(leaseTimingsMs[3]));
    }
}
