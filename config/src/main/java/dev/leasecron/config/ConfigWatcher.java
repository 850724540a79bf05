package dev.leasecron.config;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches a jobs file and hands each valid new version to a {@link ConfigListener}.
 *
 * <p>What counts as a change is the file's content, read through any symlinks, compared by SHA-256
 * with the last content seen. That covers an edit in place, an editor's write-and-rename, and the
 * swap a Kubernetes ConfigMap volume does ({@code jobs.yaml -> ..data/jobs.yaml}, where {@code ..data}
 * is a symlink replaced atomically), none of which reliably give a modify event on the file itself.
 * The watcher listens to the directory holding the file for any event, and checks every
 * {@code pollInterval} in any case, so a change the WatchService misses (another file system, a
 * symlink target elsewhere) is still seen within one interval.
 *
 * <p>Guarantees: the listener hears of each distinct content at most once, in order; content equal
 * to the running config applies nothing (after a rejected content, its return is told as
 * {@link ConfigListener#onRestored}); a rejected content leaves the running config in place.
 * Not guaranteed: that every intermediate version of a file rewritten quickly is seen.
 */
public final class ConfigWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigWatcher.class);

    // An editor may truncate then write; waiting this long after an event lets it finish.
    private static final Duration SETTLE = Duration.ofMillis(50);

    private final Path file;
    private final ConfigLoader loader;
    private final ConfigListener listener;
    private final Duration pollInterval;
    private final WatchService watchService;
    private final Thread thread;

    private volatile JobsConfig current;
    private byte[] runningDigest;
    private byte[] lastSeenDigest;

    private ConfigWatcher(Path file, ConfigLoader loader, ConfigListener listener, Duration pollInterval,
            JobsConfig initial, byte[] initialDigest) throws IOException {
        this.file = file;
        this.loader = loader;
        this.listener = listener;
        this.pollInterval = pollInterval;
        this.current = initial;
        this.runningDigest = initialDigest;
        this.lastSeenDigest = initialDigest;
        this.watchService = FileSystems.getDefault().newWatchService();
        Path directory = file.toAbsolutePath().getParent();
        directory.register(watchService, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                StandardWatchEventKinds.ENTRY_DELETE);
        this.thread = Thread.ofPlatform().daemon().name("leasecron-config-watcher").unstarted(this::watch);
    }

    /**
     * Loads {@code file} and starts watching it.
     *
     * @param pollInterval how often to check when no event comes (about 1 s in production)
     * @throws ConfigException if the file is not valid now: there is nothing to fall back on
     * @throws IOException if the file's directory cannot be watched
     */
    public static ConfigWatcher start(Path file, ConfigLoader loader, ConfigListener listener, Duration pollInterval)
            throws ConfigException, IOException {
        Objects.requireNonNull(listener, "listener");
        if (pollInterval.isZero() || pollInterval.isNegative()) {
            throw new IllegalArgumentException("pollInterval must be positive, was " + pollInterval);
        }
        byte[] content = ConfigLoader.read(file);
        JobsConfig initial = loader.parse(file.toString(), content);
        ConfigWatcher watcher = new ConfigWatcher(file, loader, listener, pollInterval, initial, digest(content));
        watcher.thread.start();
        return watcher;
    }

    /** The config running now: the initial one or the last handed to {@link ConfigListener#onReload}. */
    public JobsConfig current() {
        return current;
    }

    /**
     * Stops watching. Called from any other thread, it waits for the watcher's thread, so the listener
     * is not called afterwards; called from the listener itself, the current call is the last.
     */
    @Override
    public void close() throws IOException {
        watchService.close();
        thread.interrupt();
        if (Thread.currentThread() == thread) {
            return;
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void watch() {
        try {
            long checked = System.nanoTime();
            while (!Thread.currentThread().isInterrupted()) {
                WatchKey key = watchService.poll(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
                boolean concerned = key != null && drain(key);
                if (concerned) {
                    Thread.sleep(SETTLE);
                    drain(watchService.poll());
                }
                // Events about other files (a log written beside the jobs file) do not put off the poll.
                if (concerned || System.nanoTime() - checked >= pollInterval.toNanos()) {
                    check();
                    checked = System.nanoTime();
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // close() was called: stop quietly.
        }
    }

    /** Takes every event pending from {@code key} on; true when one may concern the file. */
    private boolean drain(WatchKey key) {
        boolean concerned = false;
        for (WatchKey pending = key; pending != null; pending = watchService.poll()) {
            for (WatchEvent<?> event : pending.pollEvents()) {
                concerned |= concerns(event.kind(), event.context(), file.getFileName());
            }
            pending.reset();
        }
        return concerned;
    }

    /**
     * Whether an event in the file's directory may concern the file: one about the file's own name,
     * about a name starting with {@code ..} (a Kubernetes ConfigMap volume swaps its {@code ..data}
     * link, not the file), or events lost. Others (a log written beside the file) are not worth
     * reading and hashing the file for: the poll sees what they hide.
     */
    static boolean concerns(WatchEvent.Kind<?> kind, Object context, Path fileName) {
        if (kind == StandardWatchEventKinds.OVERFLOW || !(context instanceof Path name)) {
            return true;
        }
        return name.equals(fileName) || name.toString().startsWith("..");
    }

    private void check() {
        byte[] content;
        byte[] digest;
        List<ConfigError> unreadable = List.of();
        try {
            content = ConfigLoader.read(file);
            digest = digest(content);
        } catch (ConfigException e) {
            // A missing file (deleted, or mid-replace on a file system without atomic swaps) is
            // reported once, like bad content, and the running config stays.
            content = null;
            digest = new byte[0];
            unreadable = e.errors();
        }
        if (Arrays.equals(digest, lastSeenDigest)) {
            return;
        }
        lastSeenDigest = digest;
        if (Arrays.equals(digest, runningDigest)) {
            // What was seen before differed from the running contents, so it had been rejected.
            notifyListener(listener::onRestored);
            return;
        }
        if (content == null) {
            List<ConfigError> errors = unreadable;
            notifyListener(() -> listener.onRejected(errors));
            return;
        }
        try {
            JobsConfig loaded = loader.parse(file.toString(), content);
            current = loaded;
            runningDigest = digest;
            notifyListener(() -> listener.onReload(loaded));
        } catch (ConfigException invalid) {
            notifyListener(() -> listener.onRejected(invalid.errors()));
        }
    }

    private void notifyListener(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            // The watcher must outlive a listener's bug, or no later change would ever be applied.
            LOG.error("config listener failed", e);
        }
    }

    private static byte[] digest(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
