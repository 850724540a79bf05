package dev.leasecron.app.cli;

import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.PluginLoadException;
import dev.leasecron.app.web.admin.AdminToken;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobsConfig;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code leasecron validate --config FILE}: checks a jobs file without opening any database. Exit 0
 * with the history and HTTP settings (the admin token only as on or off) and one line per job (name,
 * schedule, zone, type, next instant), or exit 1 with every error on stderr as {@code file:line:col: message}.
 */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Checks a jobs file and prints each job's next instant.",
            "Reads files only; never opens a database.",
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the file is valid", "1:the file has errors, or a plugin could not be loaded (listed on stderr)", "2:wrong usage"})
final class ValidateCommand implements Callable<Integer> {
    @Mixin
    ConfigFileOption config;

    @Mixin
    PluginsOption plugins;

    @Spec
    CommandSpec spec;

    private final CliContext context;

    ValidateCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<JobsConfig> loaded;
        try (JobRegistry registry = plugins.load(context)) {
            loaded = config.load(new ConfigLoader(context.environment(), PluginsOption.checker(registry)), err);
        } catch (PluginLoadException e) {
            err.println(e.getMessage());
            err.flush();
            return 1;
        }
        if (loaded.isEmpty()) {
            return 1;
        }
        JobsConfig jobs = loaded.get();
        out.println(config.file + ": valid, " + jobs.jobs().size() + (jobs.jobs().size() == 1 ? " job" : " jobs")
                + (jobs.database().embedded() ? " (embedded database " + jobs.database().primary().url() + ")" : ""));
        out.println(HistoryCommand.describe(jobs.history()));
        out.println(http(jobs));
        if (jobs.jobs().isEmpty()) {
            out.flush();
            return 0;
        }
        Instant now = context.clock().instant();
        TextTable table = new TextTable("NAME", "SCHEDULE", "ZONE", "TYPE", "NEXT");
        for (JobSpec job : jobs.jobs()) {
            table.add(job.name(), job.schedule().expression(), job.timeZone().getId(), job.type(), next(job, now));
        }
        table.print(out);
        return 0;
    }

    /** Where the ops port listens and whether the admin API is on; never the token. */
    static String http(JobsConfig config) {
        return "http: " + config.httpAddress().orElse("every interface") + ", port " + config.httpPort() + "; admin API "
                + (config.adminToken().isEmpty() ? "off (no http.adminToken)"
                        : "on (http.adminToken set; its requests act as " + AdminToken.ADMIN + ")");
    }

    private static String next(JobSpec job, Instant now) {
        String next = job.schedule().next(now).map(Instants::inZone).orElse("never: no future instant");
        if (!job.enabled()) {
            return "disabled (would be " + next + ")";
        }
        return next;
    }
}
