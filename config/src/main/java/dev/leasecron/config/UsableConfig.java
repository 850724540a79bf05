package dev.leasecron.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The parts of a jobs file that bound without error, beside the errors found in the rest: what a
 * reader ({@code leasecron status}) can still show of a file with a mistake in one job. Never what
 * the daemon runs: it refuses a file with any error.
 *
 * @param database the database section, when it is sound (the embedded default when there is none)
 * @param instance the instance name, when it is sound
 * @param jobs the jobs that are sound, in file order
 * @param errors every mistake in the file; empty when the whole file is sound
 * @param history the history section, when it is sound (the defaults when there is none)
 */
public record UsableConfig(Optional<DatabaseSpec> database, Optional<String> instance, List<JobSpec> jobs,
        List<ConfigError> errors, Optional<HistorySpec> history) {
    public UsableConfig {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(history, "history");
        jobs = List.copyOf(jobs);
        errors = List.copyOf(errors);
    }

    /** Usable parts with the history's default settings. */
    public UsableConfig(Optional<DatabaseSpec> database, Optional<String> instance, List<JobSpec> jobs,
            List<ConfigError> errors) {
        this(database, instance, jobs, errors, Optional.of(HistorySpec.DEFAULTS));
    }

    static UsableConfig nothing(List<ConfigError> errors) {
        return new UsableConfig(Optional.empty(), Optional.empty(), List.of(), errors, Optional.empty());
    }
}
