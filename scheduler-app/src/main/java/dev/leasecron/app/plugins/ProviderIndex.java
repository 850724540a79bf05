package dev.leasecron.app.plugins;

import dev.leasecron.jobs.Job;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Which plugin jar lists which {@link Job} provider class. {@link java.util.ServiceLoader} reports a
 * provider it cannot load by class name only; this index turns that into the jar the user must fix.
 */
final class ProviderIndex {
    private static final String SERVICE_FILE = "META-INF/services/" + Job.class.getName();

    private final Map<String, Path> jarByProvider;

    private ProviderIndex(Map<String, Path> jarByProvider) {
        this.jarByProvider = jarByProvider;
    }

    /** Reads the service file of each jar; a jar without one lists nothing. */
    static ProviderIndex of(Iterable<Path> jars) {
        Map<String, Path> index = new LinkedHashMap<>();
        for (Path jar : jars) {
            for (String provider : providersIn(jar)) {
                index.putIfAbsent(provider, jar);
            }
        }
        return new ProviderIndex(index);
    }

    /**
     * The provider named in {@code error}'s message or its causes' messages, with its jar: the
     * ServiceLoader's messages say "Provider com.example.X not found" and the like.
     */
    Optional<Map.Entry<String, Path>> culpritOf(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            for (Map.Entry<String, Path> entry : jarByProvider.entrySet()) {
                if (message.contains(entry.getKey())) {
                    return Optional.of(entry);
                }
            }
        }
        return Optional.empty();
    }

    private static List<String> providersIn(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            JarEntry entry = file.getJarEntry(SERVICE_FILE);
            if (entry == null) {
                return List.of();
            }
            try (BufferedReader reader = new BufferedReader(
                    new InputStreamReader(file.getInputStream(entry), StandardCharsets.UTF_8))) {
                // The service file format: one class name a line, '#' starts a comment.
                return reader.lines()
                        .map(line -> line.replaceFirst("#.*", "").strip())
                        .filter(line -> !line.isEmpty())
                        .toList();
            }
        } catch (IOException e) {
            throw new PluginLoadException("cannot read plugin jar " + jar + ": " + e.getMessage(), e);
        }
    }
}
