package dev.leasecron.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Failover with real daemons: two {@code leasecron run} processes (default timings: 15 s lease, 2 s
 * renewal, rerun sweep every second) share one job whose round sleeps for minutes. One second after a round
 * starts, its holder is killed with SIGKILL, or sent SIGTERM ({@code shutdownGrace: 0s}: cut short at
 * once); the figure is the time from the signal to the line {@code round.start} with
 * {@code "rerun":true} that the other replica prints, read as it comes.
 */
final class Failover {
    private record Line(int process, long nanos, String text) {}

    private final Path jar;
    private final String url;
    private final String user;
    private final Path work;

    Failover(Path jar, String url, String user, Path work) {
        this.jar = jar;
        this.url = url;
        this.user = user;
        this.work = work;
    }

    /** One trial; {@code signal} is {@code KILL} or {@code TERM}. */
    Map<String, Object> trial(String signal, int n) throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("signal", signal);
        String job = "failover-" + signal.toLowerCase() + "-" + n + "-" + System.currentTimeMillis();
        int second = ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(25).getSecond();
        LinkedBlockingQueue<Line> lines = new LinkedBlockingQueue<>();
        List<Process> processes = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Path config = work.resolve(job + "-" + i + ".yaml");
                Files.writeString(config, """
                        database:
                          url: %s
                          username: %s
                          pool:
                            maxSize: 4
                        instance: failover-%d
                        http:
                          port: %d
                        shutdownGrace: 0s
                        jobs:
                          - name: %s
                            schedule: "%d * * * * *"
                            type: shell
                            timeout: 10m
                            params:
                              command: "sleep 600"
                        """.formatted(url, user, i, freePort(), job, second));
                Process p = new ProcessBuilder(javaBin(), "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString(),
                        "run", "--config", config.toString())
                        .redirectError(work.resolve(job + "-" + i + ".err").toFile()).start();
                processes.add(p);
                int index = i;
                Path copy = work.resolve(job + "-" + i + ".log");
                Thread.ofVirtual().start(() -> pump(p, index, lines, copy));
            }
            Line start = await(lines, l -> l.text.contains("\"event\":\"round.start\""), 120);
            if (start == null) {
                result.put("error", "no round started within 120 s");
                return result;
            }
            Thread.sleep(1000);
            Process holder = processes.get(start.process);
            List<ProcessHandle> children = holder.descendants().toList();
            long signalled = System.nanoTime();
            if (signal.equals("KILL")) {
                holder.destroyForcibly();
                children.forEach(ProcessHandle::destroyForcibly);
            } else {
                holder.destroy();
            }
            Line rerun = await(lines, l -> l.process != start.process && l.text.contains("\"event\":\"round.start\"")
                    && l.text.contains("\"rerun\":true"), 60);
            if (rerun == null) {
                result.put("error", "no rerun started within 60 s of the signal");
                return result;
            }
            result.put("seconds", (rerun.nanos - signalled) / 1e9);
            return result;
        } finally {
            for (Process p : processes) {
                List<ProcessHandle> children = p.descendants().toList();
                p.destroyForcibly();
                children.forEach(ProcessHandle::destroyForcibly);
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static Line await(LinkedBlockingQueue<Line> lines, java.util.function.Predicate<Line> match, int seconds)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            Line l = lines.poll(left, TimeUnit.NANOSECONDS);
            if (l != null && match.test(l)) {
                return l;
            }
        }
    }

    private static void pump(Process p, int index, LinkedBlockingQueue<Line> lines, Path copy) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                var out = Files.newBufferedWriter(copy)) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(new Line(index, System.nanoTime(), line));
                out.write(line);
                out.newLine();
                out.flush();
            }
        } catch (IOException e) {
            // The process is gone.
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
