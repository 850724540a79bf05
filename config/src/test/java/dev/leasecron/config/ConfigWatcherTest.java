package dev.leasecron.config;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigWatcherTest {
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration PATIENCE = Duration.ofSeconds(10);
    private static final ConfigLoader LOADER = new ConfigLoader(Map.of("HOSTNAME", "test"), JobTypeChecker.acceptAny());

    @TempDir
    Path directory;

    private final Events events = new Events();

    /** What the watcher told the listener, in order: "reload a,b" or "rejected <first error>". */
    private static final class Events implements ConfigListener {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public void onReload(JobsConfig config) {
            seen.add("reload " + names(config));
        }

        @Override
        public void onRejected(List<ConfigError> errors) {
            seen.add("rejected " + errors.getFirst());
        }

        @Override
        public void onRestored() {
            seen.add("restored");
        }
    }

    private static String names(JobsConfig config) {
        return config.jobs().stream().map(JobSpec::name).collect(Collectors.joining(","));
    }

    private static String jobs(String... names) {
        return "jobs:\n" + Arrays.stream(names)
                .map(name -> "  - {name: " + name + ", schedule: '@daily', type: shell}\n")
                .collect(Collectors.joining());
    }

    private void awaitEvents(String... expected) {
        await().atMost(PATIENCE).until(() -> events.seen, seen -> seen.equals(List.of(expected)));
    }

    @Test
    void reloadsAnEditInPlace() throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), jobs("a"));
        try (ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, events, POLL)) {
            assertEquals("a", names(watcher.current()));

            Files.writeString(file, jobs("a", "b"));

            awaitEvents("reload a,b");
            assertEquals("a,b", names(watcher.current()));
        }
    }

    @Test
    void pollingSeesAChangeOutsideTheWatchedDirectoryWhileAFileBesideTheLinkIsWrittenWithoutPause(@TempDir Path elsewhere)
            throws Exception {
        Path target = Files.writeString(elsewhere.resolve("real-jobs.yaml"), jobs("a"));
        Path file = Files.createSymbolicLink(directory.resolve("jobs.yaml"), target);
        Path log = directory.resolve("leasecron.log");
        AtomicBoolean logging = new AtomicBoolean(true);
        Thread writer = Thread.ofPlatform().start(() -> {
            while (logging.get()) {
                try {
                    Files.writeString(log, "{\"event\":\"round.end\"}\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                } catch (IOException e) {
                    return;
                }
            }
        });
        try (ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, events, POLL)) {
            Files.writeString(target, jobs("a", "b"));
            awaitEvents("reload a,b");
        } finally {
            logging.set(false);
            writer.join();
        }
    }

    @Test
    void onlyEventsThatMayConcernTheFileAreWorthReadingIt() {
        Path file = Path.of("jobs.yaml");
        assertTrue(ConfigWatcher.concerns(StandardWatchEventKinds.ENTRY_MODIFY, Path.of("jobs.yaml"), file));
        assertTrue(ConfigWatcher.concerns(StandardWatchEventKinds.ENTRY_CREATE, Path.of("..data"), file), "a ConfigMap's swap");
        assertTrue(ConfigWatcher.concerns(StandardWatchEventKinds.OVERFLOW, null, file), "events lost");
        assertFalse(ConfigWatcher.concerns(StandardWatchEventKinds.ENTRY_MODIFY, Path.of("leasecron.log"), file));
        assertFalse(ConfigWatcher.concerns(StandardWatchEventKinds.ENTRY_CREATE, Path.of("jobs.yaml.swp"), file));
    }

    @Test
    void rejectsAnInvalidEditAndKeepsTheRunningConfig() throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), jobs("a"));
        try (ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, events, POLL)) {
            Files.writeString(file, jobs("a").replace("@daily", "@sometimes"));

            awaitEvents("rejected " + file + ":2:25: jobs[0].schedule: invalid cron \"@sometimes\": unknown macro"
                    + " @sometimes; known: @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly");
            assertEquals("a", names(watcher.current()));

            Files.writeString(file, jobs("c"));
            awaitEvents(events.seen.getFirst(), "reload c");
        }
    }

    @Test
    void rejectsAFileGrownOverTheSizeLimitAndKeepsTheRunningConfig() throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), jobs("a"));
        try (ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, events, POLL)) {
            Files.writeString(file, jobs("a") + "#".repeat(ConfigLoader.MAX_FILE_BYTES));

            awaitEvents("rejected " + file + ": the file is larger than 4 MiB (4194304 bytes), the most a jobs file may hold");
            assertEquals("a", names(watcher.current()));
        }
    }

    @Test
    void unchangedContentTriggersNothing() throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), jobs("a"));
        try (ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, events, POLL)) {
            Files.writeString(file, jobs("a"));
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(60)));
            // Bad content, then the running content back: one rejection, and no reload for the return.
            Files.writeString(file, "jobs: [");
            await().atMost(PATIENCE).until(() -> events.seen.size() == 1);
            Files.writeString(file, jobs("a"));
            await().atMost(PATIENCE).until(() -> events.seen.size() == 2);
            Files.writeString(directory.resolve("neighbour.yaml"), "unrelated");

            // The only later event is for genuinely new content; had anything above fired, it would come first.
            Files.writeString(file, jobs("b"));
            awaitEvents(events.seen.getFirst(), "restored", "reload b");
            assertEquals("b", names(watcher.current()));
        }
    }

    @Test
    void theRunningContentBackAfterARejectionIsToldOnce() throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), jobs("a"));
        try (ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, events, POLL)) {
            Files.writeString(file, "jobs: [");
            await().atMost(PATIENCE).until(() -> events.seen.size() == 1);

            Files.writeString(file, jobs("a"));

            awaitEvents(events.seen.getFirst(), "restored");
            Files.writeString(file, jobs("a") + "# the same jobs\n");
            awaitEvents(events.seen.getFirst(), "restored", "reload a");
        }
    }

    @Test
    void followsAConfigMapSymlinkSwap() throws Exception {
        // The layout kubelet writes for a ConfigMap volume.
        Path first = Files.createDirectory(directory.resolve("..2026_12_02_10_00_00.000000001"));
        Files.writeString(first.resolve("jobs.yaml"), jobs("a"));
        Path data = Files.createSymbolicLink(directory.resolve("..data"), first.getFileName());
        Path file = Files.createSymbolicLink(directory.resolve("jobs.yaml"), Path.of("..data", "jobs.yaml"));

        try (ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, events, POLL)) {
            assertEquals("a", names(watcher.current()));

            Path second = Files.createDirectory(directory.resolve("..2026_12_02_10_05_00.000000002"));
            Files.writeString(second.resolve("jobs.yaml"), jobs("a", "b"));
            Path swap = Files.createSymbolicLink(directory.resolve("..data_tmp"), second.getFileName());
            Files.move(swap, data, StandardCopyOption.ATOMIC_MOVE);
            Files.delete(first.resolve("jobs.yaml"));
            Files.delete(first);

            awaitEvents("reload a,b");
            assertEquals("a,b", names(watcher.current()));
        }
    }

    @Test
    void pollingSeesAChangeOutsideTheWatchedDirectory(@TempDir Path elsewhere) throws Exception {
        Path target = Files.writeString(elsewhere.resolve("real-jobs.yaml"), jobs("a"));
        Path file = Files.createSymbolicLink(directory.resolve("jobs.yaml"), target);
        try (ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, events, POLL)) {
            Files.writeString(target, jobs("z"));

            awaitEvents("reload z");
            assertEquals("z", names(watcher.current()));
        }
    }

    @Test
    void aDeletedFileIsRejectedOnceAndItsReturnReloads() throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), jobs("a"));
        try (ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, events, POLL)) {
            Files.delete(file);
            awaitEvents("rejected " + file + ": no such file");

            assertEquals("a", names(watcher.current()));

            Files.writeString(file, jobs("b"));
            awaitEvents("rejected " + file + ": no such file", "reload b");
            assertEquals("b", names(watcher.current()));
        }
    }

    @Test
    void closedWatcherCallsNothing() throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), jobs("a"));
        ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, events, POLL);
        watcher.close();

        Files.writeString(file, jobs("b"));

        await().during(POLL.multipliedBy(5)).atMost(PATIENCE).until(() -> events.seen.isEmpty());
    }

    @Test
    void aFailingListenerDoesNotStopTheWatcher() throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), jobs("a"));
        ConfigListener failsOnce = new ConfigListener() {
            private boolean failed;

            @Override
            public void onReload(JobsConfig config) {
                if (!failed) {
                    failed = true;
                    throw new IllegalStateException("listener bug");
                }
                events.onReload(config);
            }

            @Override
            public void onRejected(List<ConfigError> errors) {
                events.onRejected(errors);
            }
        };
        try (ConfigWatcher watcher = ConfigWatcher.start(file, LOADER, failsOnce, POLL)) {
            Files.writeString(file, jobs("b"));
            await().atMost(PATIENCE).until(() -> names(watcher.current()).equals("b"));

            Files.writeString(file, jobs("c"));
            awaitEvents("reload c");
        }
    }

    @Test
    void aListenerMayCloseItsWatcher() throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), jobs("a"));
        ConfigWatcher[] self = new ConfigWatcher[1];
        ConfigListener closesOnReload = new ConfigListener() {
            @Override
            public void onReload(JobsConfig config) {
                events.onReload(config);
                try {
                    self[0].close();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void onRejected(List<ConfigError> errors) {
                events.onRejected(errors);
            }
        };
        self[0] = ConfigWatcher.start(file, LOADER, closesOnReload, POLL);
        Files.writeString(file, jobs("b"));
        awaitEvents("reload b");

        Files.writeString(file, jobs("c"));

        await().during(POLL.multipliedBy(5)).atMost(PATIENCE).until(() -> events.seen.equals(List.of("reload b")));
    }

    @Test
    void anInvalidFileAtStartIsRefused() throws IOException {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), "jobs: nope\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigWatcher.start(file, LOADER, events, POLL));
        assertEquals(file + ":1:7: jobs: expected a list, found a string", e.errors().getFirst().toString());
    }
}
