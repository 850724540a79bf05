package dev.leasecron.app.daemon;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.leasecron.app.plugins.HttpJob;
import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.ShellJob;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.lease.LeaseTimings;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import dev.leasecron.app.testing.DaemonThread;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** A replica goes by its configured name as it is, unless another daemon on the same host has it. */
class InstanceNameTest {
    private static final Pattern INSTANCE = Pattern.compile("^daemon\\.started instance=(\\S+)");
    @TempDir
    Path locks;

    @Test
    void theNameIsKeptAsItIsWhenNoDaemonOnTheHostHasIt() {
        try (InstanceName name = InstanceName.hold("web-1", locks)) {
            assertEquals("web-1", name.name());
        }
        try (InstanceName again = InstanceName.hold("web-1", locks)) {
            assertEquals("web-1", again.name(), "the same name after a restart");
        }
    }

    @Test
    void aSecondDaemonOnTheHostGoesByTheNextOrdinalUntilTheFirstEnds() {
        try (InstanceName first = InstanceName.hold("web-1", locks)) {
            try (InstanceName second = InstanceName.hold("web-1", locks);
                    InstanceName third = InstanceName.hold("web-1", locks)) {
                assertEquals(List.of("web-1", "web-1-2", "web-1-3"), List.of(first.name(), second.name(), third.name()));
            }
            try (InstanceName next = InstanceName.hold("web-1", locks)) {
                assertEquals("web-1-2", next.name(), "the first ordinal free again");
            }
        }
    }

    @Test
    void aNameHeldByAnotherProcessIsTaken() throws Exception {
        Path holder = Files.writeString(locks.resolve("Hold.java"), """
                import java.nio.channels.FileChannel;
                import java.nio.file.*;
                class Hold {
                    public static void main(String[] args) throws Exception {
                        var lock = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE).lock();
                        System.out.println("held");
                        Thread.sleep(60_000);
                    }
                }
                """);
        Path lockFile;
        try (InstanceName probe = InstanceName.hold("db-host", locks)) {
            lockFile = Files.list(locks).filter(f -> f.getFileName().toString().startsWith("leasecron-instance-"))
                    .findFirst().orElseThrow();
        }
        Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                holder.toString(), lockFile.toString()).redirectErrorStream(true).start();
        try {
            assertEquals("held", new String(other.getInputStream().readNBytes(4), StandardCharsets.UTF_8));
            try (InstanceName name = InstanceName.hold("db-host", locks)) {
                assertEquals("db-host-2", name.name());
            }
        } finally {
            other.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try (InstanceName name = InstanceName.hold("db-host", locks)) {
            assertEquals("db-host", name.name(), "free again once the other process is gone, however it ended");
        }
    }

    @Test
    void aLongNameIsCutToLeaveRoomForTheOrdinal() {
        String wanted = "é".repeat(95) + "x"; // 191 UTF-8 bytes, the column's width
        try (InstanceName first = InstanceName.hold(wanted, locks); InstanceName second = InstanceName.hold(wanted, locks)) {
            assertEquals(wanted, first.name());
            assertEquals("é".repeat(94) + "-2", second.name());
            assertTrue(second.name().getBytes(StandardCharsets.UTF_8).length <= 191);
        }
    }

    @Test
    void aFolderThatCannotHoldTheLockLeavesTheNameUnchecked() {
        try (InstanceName first = InstanceName.hold("web-1", locks.resolve("missing"));
                InstanceName second = InstanceName.hold("web-1", locks.resolve("missing"))) {
            assertEquals(List.of("web-1", "web-1"), List.of(first.name(), second.name()));
        }
    }

    /** The daemon goes by the configured name, says so in daemon.started, and writes it in the lease rows. */
    @Test
    void daemonsGoByTheConfiguredNameAndTheNextOrdinal(@TempDir Path directory) throws Exception {
        Logger log = (Logger) LoggerFactory.getLogger("leasecron.daemon");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        log.addAppender(logged);
        List<Daemon> daemons = new ArrayList<>();
        List<CompletableFuture<Void>> running = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Path file = Files.writeString(directory.resolve("jobs-" + i + ".yaml"), """
                        instance: leasecron-test-%d
                        database:
                          url: jdbc:sqlite:leases-%d.db
                        http:
                          port: %d
                        jobs:
                          - name: nightly
                            schedule: "@daily"
                            type: shell
                            params: {command: "true"}
                        """.formatted(ProcessHandle.current().pid(), i, freePort()));
                ConfigLoader loader = new ConfigLoader(Map.of(), JobTypeChecker.acceptAny());
                Daemon daemon = new Daemon(loader.load(file), file, loader, JobRegistry.of(new ShellJob(), new HttpJob()),
                        LeaseTimings.DEFAULT);
                daemons.add(daemon);
                running.add(DaemonThread.start(daemon));
                int started = i + 1;
                await().atMost(Duration.ofSeconds(20)).until(() -> started(logged).size() >= started);
            }
            String base = "leasecron-test-" + ProcessHandle.current().pid();
            assertEquals(List.of(base, base + "-2"), started(logged));
        } finally {
            daemons.forEach(Daemon::stop);
            for (CompletableFuture<Void> run : running) {
                run.get(60, TimeUnit.SECONDS);
            }
            log.detachAppender(logged);
        }
    }

    private static List<String> started(ListAppender<ILoggingEvent> logged) {
        return List.copyOf(logged.list).stream().map(ILoggingEvent::getFormattedMessage)
                .map(INSTANCE::matcher).filter(m -> m.find()).map(m -> m.group(1)).toList();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
