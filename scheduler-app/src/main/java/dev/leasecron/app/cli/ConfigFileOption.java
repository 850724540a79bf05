package dev.leasecron.app.cli;

import dev.leasecron.config.ConfigError;
import dev.leasecron.config.ConfigException;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobsConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The {@code --config FILE} option every subcommand shares, and the loading that goes with it. */
final class ConfigFileOption {
    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "The jobs YAML file.")
    Path file;

    /**
     * The config, or empty after printing every error to {@code err} as {@code file:line:col: message}
     * (a user's mistake: no stack trace).
     */
    Optional<JobsConfig> load(ConfigLoader loader, PrintWriter err) {
        try {
            return Optional.of(loader.load(file));
        } catch (ConfigException e) {
            for (ConfigError error : e.errors()) {
                err.println(error);
            }
            err.flush();
            return Optional.empty();
        }
    }
}
