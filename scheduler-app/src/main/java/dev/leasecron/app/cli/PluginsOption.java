package dev.leasecron.app.cli;

import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.PluginFolder;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.config.TypeProblem;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/** The {@code --plugins DIR} option of the subcommands that need the job types. */
final class PluginsOption {
    @Option(names = "--plugins", paramLabel = "DIR",
            description = "Folder of plugin jars (default: ./plugins, if it exists).")
    Path dir;

    /**
     * The job types of the built-in plugins and the folder's jars.
     *
     * @throws dev.leasecron.app.plugins.PluginLoadException with a message meant for the user
     */
    JobRegistry load(CliContext context) {
        return context.plugins().apply(dir == null ? PluginFolder.defaultFolder() : PluginFolder.given(dir));
    }

    /**
     * The config loader's check of each job's {@code type} and {@code params} against the plugins. A
     * plugin's {@code "params.key: ..."} message is reported at that key's line.
     */
    static JobTypeChecker checker(JobRegistry registry) {
        return (type, params) -> registry.problems(type, params).stream().map(PluginsOption::positioned).toList();
    }

    private static TypeProblem positioned(String message) {
        Matcher m = PARAM_MESSAGE.matcher(message);
        if (!m.matches()) {
            return TypeProblem.ofType(message);
        }
        // A nested key (params.env.FOO) keeps its path in the message; a top-level one is the key itself.
        return TypeProblem.ofParam(m.group(1), m.group(2).isEmpty() ? m.group(3) : message);
    }

    private static final Pattern PARAM_MESSAGE = Pattern.compile("params\\.([^.:\\[\\s]+)([^:\\s]*): (.*)", Pattern.DOTALL);
}
