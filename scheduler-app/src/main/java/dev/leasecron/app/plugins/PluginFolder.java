package dev.leasecron.app.plugins;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where plugin jars are dropped: every {@code *.jar} directly inside {@link #path()}.
 *
 * @param path the folder, relative to the working directory unless absolute
 * @param required whether a missing folder is an error: true for a folder the user named, false
 *     for the default {@code plugins/}, which most deployments do not have
 */
public record PluginFolder(Path path, boolean required) {

    /** The folder used when none is given: {@code plugins/} in the working directory. */
    public static final Path DEFAULT_PATH = Path.of("plugins");

    public PluginFolder {
        if (path == null) {
            throw new IllegalArgumentException("path must not be null");
        }
    }

    /** {@code plugins/} in the working directory, which may be missing. */
    public static PluginFolder defaultFolder() {
        return new PluginFolder(DEFAULT_PATH, false);
    }

    /** A folder the user named (e.g. {@code --plugins DIR}), which must exist. */
    public static PluginFolder given(Path path) {
        return new PluginFolder(path, true);
    }

    /**
     * The plugin jars in the folder, sorted by name so that loading order, and so any error, is the
     * same on every replica.
     *
     * @throws PluginLoadException the folder is required and missing, or is not a folder, or cannot
     *     be read
     */
    public List<Path> jars() {
        if (!Files.exists(path)) {
            if (required) {
                throw new PluginLoadException("plugins folder " + path.toAbsolutePath() + " does not exist");
            }
            return List.of();
        }
        if (!Files.isDirectory(path)) {
            throw new PluginLoadException("plugins folder " + path.toAbsolutePath() + " is not a folder");
        }
        try (Stream<Path> entries = Files.list(path)) {
            return entries
                    .filter(p -> p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new PluginLoadException("cannot read plugins folder " + path.toAbsolutePath() + ": " + e, e);
        }
    }
}
