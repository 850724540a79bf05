package dev.leasecron.app.plugins;

import dev.leasecron.jobs.Job;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The job types a daemon can run, by {@link Job#type()}: every {@link Job} that
 * {@link ServiceLoader} finds on the app's classpath (the built-in {@code shell} and {@code http})
 * and in the jars of a {@link PluginFolder}.
 *
 * <p>Loading is all or nothing: two providers of one type, a provider that cannot be created, or a
 * missing folder that was asked for stop it with a {@link PluginLoadException} whose message names
 * the classes and jars involved. A registry is immutable and safe to share between threads.
 *
 * <p>All plugin jars share one class loader whose parent is the app's, so a plugin sees the jobs
 * API and the app's libraries, and plugins can share classes. {@link #close()} releases the jars;
 * call it only once no round runs any more.
 */
public final class JobRegistry implements AutoCloseable {
    private static final String SERVICE_PREFIX = Job.class.getName() + ": ";

    private final Map<String, LoadedJob> jobsByType;
    private final URLClassLoader pluginLoader;

    private JobRegistry(Map<String, LoadedJob> jobsByType, URLClassLoader pluginLoader) {
        this.jobsByType = Collections.unmodifiableMap(jobsByType);
        this.pluginLoader = pluginLoader;
    }

    /**
     * Loads the job types of the app's classpath and of {@code folder}'s jars.
     *
     * @throws PluginLoadException see the class documentation
     */
    public static JobRegistry load(PluginFolder folder) {
        List<Path> jars = folder.jars();
        ClassLoader appLoader = JobRegistry.class.getClassLoader();
        if (jars.isEmpty()) {
            return new JobRegistry(discover(appLoader, ProviderIndex.of(jars)), null);
        }
        URLClassLoader pluginLoader = new URLClassLoader("leasecron-plugins", urls(jars), appLoader);
        try {
            return new JobRegistry(discover(pluginLoader, ProviderIndex.of(jars)), pluginLoader);
        } catch (RuntimeException | Error e) {
            closeQuietly(pluginLoader, e);
            throw e;
        }
    }

    /**
     * A registry of exactly {@code jobs}, without any class path scan: for embedding and tests.
     *
     * @throws PluginLoadException two of them have the same type
     */
    public static JobRegistry of(Job... jobs) {
        Map<String, LoadedJob> byType = new TreeMap<>();
        for (Job job : jobs) {
            add(byType, LoadedJob.of(job));
        }
        return new JobRegistry(byType, null);
    }

    /** The job of type {@code type}, if one was loaded. */
    public Optional<Job> find(String type) {
        return Optional.ofNullable(jobsByType.get(type)).map(LoadedJob::job);
    }

    /**
     * The job of type {@code type}.
     *
     * @throws IllegalArgumentException no job has that type; the message lists the known types
     */
    public Job get(String type) {
        return find(type).orElseThrow(() -> new IllegalArgumentException(unknownType(type)));
    }

    /**
     * Where each type's implementation was loaded from (a jar, or the classes folder of a build),
     * by type: for the daemon's {@code plugins.loaded} event.
     */
    public SortedMap<String, String> sources() {
        SortedMap<String, String> sources = new TreeMap<>();
        jobsByType.forEach((type, loaded) -> sources.put(type, loaded.source()));
        return Collections.unmodifiableSortedMap(sources);
    }

    /** The loaded types, sorted. */
    public SortedSet<String> types() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(jobsByType.keySet()));
    }

    /**
     * What is wrong with a job's {@code type} and {@code params}, for config validation: {@code
     * unknown job type "x"; known types: http, shell} for an unknown type, else the job's own
     * {@link Job#checkParams} messages. Empty when the job can run with these params.
     *
     * @param params the job's params after interpolation; null counts as none
     */
    public List<String> problems(String type, Map<String, Object> params) {
        LoadedJob loaded = jobsByType.get(type);
        if (loaded == null) {
            return List.of(unknownType(type));
        }
        try {
            return List.copyOf(loaded.job().checkParams(params == null ? Map.of() : params));
        } catch (RuntimeException e) {
            // A plugin's bug must not take validation down with a stack trace; it is one more problem.
            return List.of("params: job type \"" + type + "\" of " + loaded.describe()
                    + " failed to check them: " + e);
        }
    }

    /** Releases the plugin jars. Jobs of plugins must not run after this. */
    @Override
    public void close() {
        if (pluginLoader != null) {
            try {
                pluginLoader.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close the plugin jars", e);
            }
        }
    }

    private String unknownType(String type) {
        return "unknown job type \"" + type + "\"; known types: " + String.join(", ", jobsByType.keySet());
    }

    private static Map<String, LoadedJob> discover(ClassLoader loader, ProviderIndex index) {
        Map<String, LoadedJob> byType = new TreeMap<>();
        Iterator<ServiceLoader.Provider<Job>> providers =
                ServiceLoader.load(Job.class, loader).stream().iterator();
        while (true) {
            ServiceLoader.Provider<Job> provider;
            try {
                if (!providers.hasNext()) {
                    return byType;
                }
                provider = providers.next();
            } catch (ServiceConfigurationError | LinkageError e) {
                throw brokenProvider(index, e);
            }
            add(byType, instantiate(provider));
        }
    }

    private static LoadedJob instantiate(ServiceLoader.Provider<Job> provider) {
        Class<? extends Job> type = provider.type();
        String where = type.getName() + " (" + LoadedJob.sourceOf(type) + ")";
        Job job;
        String jobType;
        try {
            job = provider.get();
            jobType = job.type();
        } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
            throw new PluginLoadException("job plugin " + where + " cannot be created: " + rootMessage(e), e);
        }
        return new LoadedJob(jobType, job, LoadedJob.sourceOf(type));
    }

    private static void add(Map<String, LoadedJob> byType, LoadedJob loaded) {
        String type = loaded.type();
        if (type == null || type.isBlank()) {
            throw new PluginLoadException("job plugin " + loaded.describe() + " has no type: type() returned \""
                    + type + "\"");
        }
        LoadedJob previous = byType.putIfAbsent(type, loaded);
        if (previous != null) {
            throw new PluginLoadException("job type \"" + type + "\" is provided twice: by "
                    + previous.describe() + " and by " + loaded.describe() + "; remove one of them");
        }
    }

    private static PluginLoadException brokenProvider(ProviderIndex index, Throwable e) {
        return index.culpritOf(e)
                .map(culprit -> new PluginLoadException("job plugin " + culprit.getKey() + " ("
                        + culprit.getValue() + ") cannot be loaded: " + rootMessage(e), e))
                .orElseGet(() -> new PluginLoadException("a job plugin cannot be loaded: " + rootMessage(e), e));
    }

    /**
     * What went wrong, for a message: the error's own message without ServiceLoader's prefix of the
     * service's name, and the innermost cause, which usually says why.
     */
    private static String rootMessage(Throwable e) {
        String message = String.valueOf(e.getMessage()).replace(SERVICE_PREFIX, "");
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? message : message + " (" + root + ")";
    }

    private static URL[] urls(List<Path> jars) {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = jars.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new PluginLoadException("cannot use plugin jar " + jars.get(i) + ": " + e.getMessage(), e);
            }
        }
        return urls;
    }

    private static void closeQuietly(URLClassLoader loader, Throwable failure) {
        try {
            loader.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
