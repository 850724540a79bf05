package dev.leasecron.app.plugins;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.app.testing.TestJobContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A daemon killed with SIGKILL mid-round takes its shell command down with it: otherwise the
 * orphan runs on beside the instant's rerun. The daemon here is a JVM of its own
 * ({@link ShellJobHost}) running a round the way the scheduler does.
 */
class CommandDiesWithDaemonTest {
    /** Two cores shared with other JVMs: a small heap and the quick compiler only. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final List<Long> started = new ArrayList<>();
    private Process host;

    @AfterEach
    void killLeftovers() {
        if (host != null) {
            host.destroyForcibly();
        }
        started.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    @Test
    void sigkilledDaemonTakesTheCommandAndWhatItStartedWithIt(@TempDir Path dir) throws IOException {
        Path pids = dir.resolve("pids");
        // The command's shell and a child it started, both written down once both run.
        host = startHost(dir, "sleep 1000 & echo $$ $! > " + pids + ".part && mv " + pids + ".part " + pids + "; wait");
        List<Long> commandAndChild = await().atMost(Duration.ofSeconds(20)).until(() -> readPids(pids), Optional::isPresent)
                .orElseThrow();
        started.addAll(commandAndChild);
        assertTrue(commandAndChild.stream().allMatch(CommandDiesWithDaemonTest::isRunning), "running before the kill");

        host.destroyForcibly(); // SIGKILL: no shutdown hook, no finally block runs in the daemon

        await().atMost(Duration.ofSeconds(5))
                .until(() -> commandAndChild.stream().noneMatch(CommandDiesWithDaemonTest::isRunning));
    }

    @Test
    void roundThatEndsReleasesItsWatcherAndLeavesBackgroundProcessesAlone() throws Exception {
        String marker = "lifeline-" + UUID.randomUUID();
        TestJobContext context = new TestJobContext("background", Map.of("command", "sleep 1000 & echo $!; : " + marker));

        new ShellJob(Duration.ofMillis(300)).run(context);

        long background = context.log().messages().stream().filter(m -> m.matches("stdout: \\d+"))
                .map(m -> Long.parseLong(m.substring("stdout: ".length()))).findFirst().orElseThrow();
        started.add(background);
        // The watcher's shell carries the command in its arguments; once told the round is over, it exits.
        await().atMost(Duration.ofSeconds(5)).until(() -> ProcessHandle.allProcesses()
                .noneMatch(p -> p.info().arguments().map(a -> String.join(" ", a).contains(marker)).orElse(false)));
        assertTrue(isRunning(background), "a process the command left in the background is not killed");
    }

    private static Process startHost(Path dir, String command) throws IOException {
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.addAll(JVM_OPTIONS);
        argv.add("-cp");
        // Surefire's own class path is a jar whose manifest lists the test class path.
        argv.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        argv.add(ShellJobHost.class.getName());
        argv.add(command);
        return new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(dir.resolve("host.log").toFile()).start();
    }

    private static Optional<List<Long>> readPids(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        return Optional.of(List.of(Files.readString(file).strip().split(" ")).stream().map(Long::parseLong).toList());
    }

    private static boolean isRunning(long pid) {
        return ProcessHandle.of(pid).map(ProcessTree::isRunning).orElse(false);
    }
}
