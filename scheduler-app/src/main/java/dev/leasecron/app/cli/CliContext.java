package dev.leasecron.app.cli;

import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobTypeChecker;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * What the subcommands take from the process, gathered so tests can pass their own.
 *
 * @param environment what {@code ${VAR}} in the jobs file reads
 * @param clock gives "now" for the next instants
 * @param types checks job types against the loaded plugins
 */
record CliContext(Map<String, String> environment, Clock clock, JobTypeChecker types) {
    public CliContext {
        environment = Map.copyOf(environment);
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(types, "types");
    }

    /** The loader every subcommand reads the jobs file with. */
    ConfigLoader loader() {
        return new ConfigLoader(environment, types);
    }
}
