package dev.leasecron.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * One replica of a cell in a JVM of its own, as a deployed replica is: its collector, its JIT and its
 * heap are its own, and a pause holds up its rounds only. Started by {@link Cell}, which it answers on
 * stdout with lines starting {@value #PREFIX} (the schedulers log to stderr):
 * <ol>
 *   <li>{@code started S} once its scheduler runs (S seconds to start it);
 *   <li>then reads {@code window START END LAST DEADLINE} (database-clock ms) on stdin, takes its
 *       counters at START and END, and from END prints {@code last N} every 100 ms, N the jobs of
 *       the instant LAST that started here, until it reads {@code stop} or DEADLINE passes;
 *   <li>writes its fires ({@code FILE.fires}) and counters ({@code FILE.json}) and prints {@code done}.
 * </ol>
 */
public final class Replica {
    static final String PREFIX = "@replica ";

    public static void main(String[] args) throws Exception {
        Map<String, String> a = Args.parse(args);
        String scheduler = a.get("scheduler");
        int replica = Integer.parseInt(a.get("replica"));
        int jobs = Integer.parseInt(a.get("jobs"));
        int period = Integer.parseInt(a.get("period"));
        Path out = Path.of(a.get("out"));

        HikariDataSource pool = Cell.pool(a, "replica-" + replica, Cell.POOL_SIZE);
        DbClock clock = DbClock.sync(pool);
        Recorder recorder = new Recorder(clock);
        StatementCounter counter = new StatementCounter();
        Contender contender = Contender.named(scheduler);
        long startNanos = System.nanoTime();
        contender.start(counter.wrap(pool), replica, jobs, period, recorder);
        double startupSeconds = (System.nanoTime() - startNanos) / 1e9;
        say("started " + startupSeconds);

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String[] window = in.readLine().split(" ");
        long windowStart = Long.parseLong(window[1]);
        long windowEnd = Long.parseLong(window[2]);
        long lastMeasured = Long.parseLong(window[3]);
        long deadline = Long.parseLong(window[4]);
        Cell.sleepUntil(clock, windowStart);
        Snapshot before = Snapshot.take(counter, recorder);
        Cell.sleepUntil(clock, windowEnd);
        Snapshot after = Snapshot.take(counter, recorder);

        // The last measured instant's stragglers: the cell says stop once the cluster ran all its jobs.
        Thread stopLine = Thread.ofPlatform().daemon().start(() -> {
            try {
                String line;
                do {
                    line = in.readLine(); // "stop", or the end of stdin when the cell went away
                } while (line != null && !line.equals("stop"));
            } catch (IOException e) {
                // the cell went away: stop as well
            }
        });
        while (stopLine.isAlive() && clock.nowMs() < deadline) {
            say("last " + recorder.jobsOf(lastMeasured));
            Thread.sleep(100);
        }

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("statements", after.statements - before.statements);
        result.put("commits", after.commits - before.commits);
        result.put("rounds", after.fires - before.fires);
        result.put("cpu_ns", after.cpuNanos - before.cpuNanos);
        result.put("jit_ms", after.jitMillis - before.jitMillis);
        result.put("heap_after_gc_bytes", heapAfterGc());
        result.put("startup_s", startupSeconds);
        result.put("clock_offset_us", clock.offsetMicros());
        result.put("clock_error_us", clock.errorMicros());
        result.put("settings", contender.settings());
        recorder.write(Path.of(out + ".fires"));
        Files.writeString(Path.of(out + ".json"), new ObjectMapper().writeValueAsString(result));
        say("done");

        Thread stopper = Thread.ofPlatform().daemon().start(() -> {
            try {
                contender.stop();
            } catch (Exception e) {
                System.err.println("stop: " + e);
            }
        });
        stopper.join(15_000);
        Runtime.getRuntime().halt(0);
    }

    private static void say(String line) {
        System.out.println(PREFIX + line);
        System.out.flush();
    }

    /**
     * Heap in use after full collections. Not {@code System.gc()}: under the replicas'
     * {@code -XX:+ExplicitGCInvokesConcurrent} (set in runs before 2026-12-06) it is a young collection and a concurrent cycle, which
     * leave the old generation's dead objects in place; a class histogram collects the whole heap.
     */
    private static long heapAfterGc() throws JMException, InterruptedException {
        ObjectName diagnostics = new ObjectName("com.sun.management:type=DiagnosticCommand");
        for (int i = 0; i < 3; i++) {
            ManagementFactory.getPlatformMBeanServer().invoke(diagnostics, "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Counters at one moment. */
    private record Snapshot(long statements, long commits, long fires, long cpuNanos, long jitMillis) {
        static Snapshot take(StatementCounter counter, Recorder recorder) {
            long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
            return new Snapshot(counter.statements(), counter.commits(), recorder.started.sum(), cpu,
                    ManagementFactory.getCompilationMXBean().getTotalCompilationTime());
        }
    }
}
