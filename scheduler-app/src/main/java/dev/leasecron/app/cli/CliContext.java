package dev.leasecron.app.cli;

import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.PluginFolder;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What the subcommands take from the process, gathered so tests can pass their own.
 *
 * @param environment what {@code ${VAR}} in the jobs file reads
 * @param clock gives "now" for the next instants
 * @param plugins loads the job types from a plugins folder
 */
record CliContext(Map<String, String> environment, Clock clock, Function<PluginFolder, JobRegistry> plugins) {
    public CliContext {
        environment = Map.copyOf(environment);
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(plugins, "plugins");
    }
}
