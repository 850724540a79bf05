package dev.leasecron.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The cell's side of one {@link Replica} process: starts it, follows its lines, and reads what it wrote. */
final class ReplicaProcess {
    private final Process process;
    private final Path out;
    private final Path log;
    private final PrintStream commands;
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile long lastCount;

    private ReplicaProcess(Process process, Path out, Path log) {
        this.process = process;
        this.out = out;
        this.log = log;
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("replica-lines").start(this::follow);
    }

    /**
     * Starts replica {@code replica} of the cell in a JVM of its own with the heap and collector of a
     * deployed service, the same for all four schedulers.
     *
     * @param out where the replica writes its files ({@code out.fires}, {@code out.json}); its stderr
     *     goes to {@code out.log} and its collector's log to {@code out-gc.log}
     */
    static ReplicaProcess start(Map<String, String> a, String scheduler, int replica, int jobs, int period, Path out)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // A fixed heap, as a service is deployed: left to grow and shrink, G1 shrinks it to a
                // few tens of MiB between bursts and then collects in nearly every burst.
                "-XX:+UseG1GC", "-Xms1g", "-Xmx1g", "--enable-native-access=ALL-UNNAMED"));
        // Burst cells: WARN to stderr for all four. Sustained cells: INFO into a file, each task one line.
        boolean info = "info".equals(a.get("log"));
        cmd.addAll(List.of(
                // The pauses, to tell an instant the collector held up from one the scheduler did.
                "-Xlog:gc:file=" + out + "-gc.log:time",
                "-Dlogback.configurationFile=" + (info ? "bench-logback-info.xml" : "bench-logback.xml"),
                "-Dbench.log=" + out + "-app.log",
                "-cp", System.getProperty("java.class.path"), Replica.class.getName(),
                "--scheduler", scheduler, "--replica", Integer.toString(replica), "--jobs", Integer.toString(jobs),
                "--period", Integer.toString(period), "--url", a.get("url"), "--user", a.getOrDefault("user", "postgres"),
                "--out", out.toString()));
        Path log = Path.of(out + ".log");
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        return new ReplicaProcess(p, out, log);
    }

    private void follow() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.startsWith(Replica.PREFIX)) {
                    continue; // a library printing to stdout
                }
                String[] words = line.substring(Replica.PREFIX.length()).split(" ");
                switch (words[0]) {
                    case "started" -> started.countDown();
                    case "last" -> lastCount = Long.parseLong(words[1]);
                    case "done" -> done.countDown();
                    default -> throw new IllegalStateException("unexpected line from replica: " + line);
                }
            }
        } catch (IOException e) {
            // the process ended: the waits below time out and say so
        }
    }

    void awaitStarted(long seconds) throws InterruptedException, TimeoutException {
        await(started, seconds, "start");
    }

    /** Tells the replica the measured window, in database-clock milliseconds (see {@link Replica}). */
    void window(long start, long end, long lastMeasured, long deadline) {
        commands.println("window " + start + " " + end + " " + lastMeasured + " " + deadline);
    }

    /** The jobs of the last measured instant that started on this replica, as it last said. */
    long lastCount() {
        return lastCount;
    }

    void stop() {
        commands.println("stop");
    }

    void awaitDone(long seconds) throws InterruptedException, TimeoutException {
        await(done, seconds, "write its results");
    }

    List<Recorder.Fire> fires() throws IOException {
        try (var lines = Files.lines(Path.of(out + ".fires"))) {
            return lines.map(Recorder.Fire::parse).toList();
        }
    }

    Map<String, Object> counters() throws IOException {
        return new ObjectMapper().readValue(Path.of(out + ".json").toFile(), new TypeReference<>() {});
    }

    /** Ends the process if it is still there (it halts by itself once done). */
    void destroy() {
        process.destroyForcibly();
    }

    private void await(CountDownLatch latch, long seconds, String what) throws InterruptedException, TimeoutException {
        if (!latch.await(seconds, TimeUnit.SECONDS)) {
            throw new TimeoutException("replica did not " + what + " within " + seconds + " s (alive: " + process.isAlive()
                    + "); log " + log);
        }
    }
}
