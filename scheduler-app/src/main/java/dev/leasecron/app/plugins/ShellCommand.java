package dev.leasecron.app.plugins;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a {@code shell} job runs, read from its params: {@code command} (an argv list, or one string
 * run by {@code sh -c}), {@code env} (added to the daemon's environment) and {@code workingDir}
 * (the daemon's working directory when absent).
 */
record ShellCommand(List<String> argv, Map<String, String> env, Optional<Path> workingDir) {

    static final String COMMAND = "command";
    static final String ENV = "env";
    static final String WORKING_DIR = "workingDir";

    ShellCommand {
        argv = List.copyOf(argv);
        env = Map.copyOf(env);
    }

    /** Reads the command from {@code params}; look at {@code params.problems()} before using it. */
    static ShellCommand read(ParamsReader params) {
        List<String> argv = argv(params);
        Map<String, String> env = params.stringMap(ENV);
        Optional<Path> workingDir = params.string(WORKING_DIR).map(Path::of);
        return new ShellCommand(argv, env, workingDir);
    }

    private static List<String> argv(ParamsReader params) {
        Object command = params.raw(COMMAND);
        switch (command) {
            case null -> {
                params.problem(COMMAND, "required");
                return List.of();
            }
            case String line when line.isBlank() -> {
                params.problem(COMMAND, "must not be blank");
                return List.of();
            }
            case String line -> {
                return List.of("sh", "-c", line);
            }
            case List<?> list when list.isEmpty() -> {
                params.problem(COMMAND, "must not be an empty list");
                return List.of();
            }
            case List<?> list -> {
                List<String> argv = new ArrayList<>();
                for (int i = 0; i < list.size(); i++) {
                    if (list.get(i) instanceof String arg) {
                        argv.add(arg);
                    } else {
                        params.problem(COMMAND + "[" + i + "]", "must be a string, not "
                                + ParamsReader.describe(list.get(i)) + " (quote it)");
                    }
                }
                if (!argv.isEmpty() && argv.getFirst().isBlank()) {
                    params.problem(COMMAND + "[0]", "must name a program");
                }
                return argv;
            }
            default -> {
                params.problem(COMMAND, "must be a string or a list of strings, not "
                        + ParamsReader.describe(command));
                return List.of();
            }
        }
    }
}
