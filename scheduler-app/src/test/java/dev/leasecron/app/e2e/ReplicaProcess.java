package dev.leasecron.app.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One daemon started as a separate JVM from the packaged jar ({@code target/leasecron.jar}), its
 * stdout and stderr captured to files for assertions and for a look after a failure. The process
 * and whatever it started are killed by {@link #close()}.
 */
final class ReplicaProcess implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Two cores shared by several JVMs: small heaps, a serial collector and the quick compiler only. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Xshare:auto");

    private final String name;
    private final Process process;
    private final Path stdout;
    private final Path stderr;
    /** The daemon's descendants (shell commands), seen before a kill; they would outlive it otherwise. */
    private final List<ProcessHandle> orphans = new ArrayList<>();

    private ReplicaProcess(String name, Process process, Path stdout, Path stderr) {
        this.name = name;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** The shaded jar the build packaged, relative to the module directory. */
    static Path jar() {
        Path jar = moduleDir().resolve("target/leasecron.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: the integration tests run after `package`");
        }
        return jar;
    }

    /** The scheduler-app module's directory: failsafe sets {@code basedir}; an IDE runs in it. */
    static Path moduleDir() {
        return Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    }

    static Path javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** A TCP port free right now, for a replica's {@code http.port}. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts {@code [wrapper...] java -jar leasecron.jar args...} in {@code workDir} with the test's
     * environment plus {@code env}; output goes to {@code logDir/name.out} and {@code name.err}.
     */
    static ReplicaProcess start(String name, Path workDir, Path logDir, Map<String, String> env, List<String> wrapper,
            List<String> args) {
        List<String> command = new ArrayList<>(wrapper);
        command.add(javaBinary().toString());
        command.addAll(JVM_OPTIONS);
        command.add("-jar");
        command.add(jar().toString());
        command.addAll(args);
        try {
            Files.createDirectories(logDir);
            Path out = logDir.resolve(name + ".out");
            Path err = logDir.resolve(name + ".err");
            ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            builder.environment().putAll(env);
            return new ReplicaProcess(name, builder.start(), out, err);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Every line of stdout so far. */
    List<String> lines() {
        return readLines(stdout);
    }

    /** Every JSON line of stdout so far; other lines (a JVM warning, a half-written last line) are left out. */
    List<JsonNode> entries() {
        List<JsonNode> entries = new ArrayList<>();
        for (String line : lines()) {
            if (!line.startsWith("{") || !line.endsWith("}")) {
                continue;
            }
            try {
                entries.add(JSON.readTree(line));
            } catch (IOException e) {
                // A line still being written.
            }
        }
        return entries;
    }

    /** The JSON lines whose {@code event} is {@code event}, in order. */
    List<JsonNode> events(String event) {
        return entries().stream().filter(e -> event.equals(e.path("event").asText())).toList();
    }

    /** The same, for one job only. */
    List<JsonNode> events(String event, String job) {
        return events(event).stream().filter(e -> job.equals(e.path("job").asText())).toList();
    }

    static Instant timestamp(JsonNode entry) {
        return Instant.parse(entry.path("@timestamp").asText());
    }

    static Instant instant(JsonNode entry) {
        return Instant.parse(entry.path("instant").asText());
    }

    /** SIGKILL, as a crash: the daemon gets no say. Its shell commands are killed after it, as the host would reap them. */
    void kill() {
        orphans.addAll(process.descendants().toList());
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
        orphans.forEach(ProcessHandle::destroyForcibly);
    }

    /** SIGTERM, as an orchestrator stopping the replica. */
    void term() {
        process.destroy();
    }

    /**
     * SIGTERM to every process of the group the daemon leads (started under {@code setsid}), as Ctrl-C in
     * a terminal or {@code timeout} signal a whole group: the daemon and any command still in its group.
     */
    void termGroup() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid()), "stat"));
            String group = stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2];
            if (!group.equals(Long.toString(pid()))) {
                throw new IllegalStateException(name + " leads no process group of its own (its group is " + group + ")");
            }
            Process kill = new ProcessBuilder("kill", "-TERM", "--", "-" + pid()).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -TERM -" + pid() + " exited " + kill.exitValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted signalling " + name, e);
        }
    }

    /** The exit code once the process has ended within {@code timeout}. */
    int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(name + " still runs " + timeout + " later");
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + name, e);
        }
    }

    /** The last {@code count} lines of stdout and stderr, for the report of a failed test. */
    String tail(int count) {
        StringBuilder text = new StringBuilder();
        text.append("----- ").append(name).append(" (pid ").append(pid()).append(", ")
                .append(process.isAlive() ? "running" : "exit " + process.exitValue()).append(") stdout: ")
                .append(stdout).append('\n');
        List<String> out = lines();
        out.subList(Math.max(0, out.size() - count), out.size()).forEach(l -> text.append(l).append('\n'));
        List<String> err = readLines(stderr);
        if (!err.isEmpty()) {
            text.append("----- ").append(name).append(" stderr:\n");
            err.subList(Math.max(0, err.size() - count), err.size()).forEach(l -> text.append(l).append('\n'));
        }
        return text.toString();
    }

    @Override
    public void close() {
        try (Stream<ProcessHandle> descendants = process.descendants()) {
            orphans.addAll(descendants.toList());
        }
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        orphans.forEach(ProcessHandle::destroyForcibly);
    }

    static List<String> readLines(Path file) {
        try {
            if (!Files.exists(file)) {
                return List.of();
            }
            // Decoded leniently: a line cut in the middle of a character must not fail the read.
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            return text.lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return name + "(pid " + pid() + ")";
    }
}
