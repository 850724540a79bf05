package dev.leasecron.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The replicas' CPU every 10 s from their start, all threads and the JIT compiler's threads apart: how
 * long after start the JIT still takes a share of the CPU, which says when a cell measures the steady
 * state a long-running daemon is in rather than its warm-up.
 */
final class CpuTimeline {
    private static final long STEP_MS = 10_000;

    private final List<Long> pids;
    private final List<Map<String, Object>> points = new ArrayList<>();
    private final Thread thread;

    private CpuTimeline(List<Long> pids) {
        this.pids = pids;
        this.thread = Thread.ofPlatform().daemon().name("cpu-timeline").unstarted(this::run);
    }

    static CpuTimeline start(List<Long> pids) {
        CpuTimeline t = new CpuTimeline(pids);
        t.thread.start();
        return t;
    }

    private void run() {
        long start = System.nanoTime();
        long[] last = sample();
        try {
            for (int i = 1; ; i++) {
                Thread.sleep(Math.max(0, start / 1_000_000 + i * STEP_MS - System.nanoTime() / 1_000_000));
                long[] now = sample();
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("s", i * STEP_MS / 1000);
                p.put("jvm_ms", now[0] - last[0]);
                p.put("jit_ms", now[1] - last[1]);
                synchronized (points) {
                    points.add(p);
                }
                last = now;
            }
        } catch (InterruptedException e) {
            // stopped
        }
    }

    /** The live threads' CPU and the compiler threads', summed over the replicas (a thread that ended is not counted). */
    private long[] sample() {
        long all = 0;
        long jit = 0;
        for (long pid : pids) {
            for (Map.Entry<String, Long> e : ProcCpu.millisByThread(pid).entrySet()) {
                all += e.getValue();
                if (ProcCpu.jit(e.getKey())) {
                    jit += e.getValue();
                }
            }
        }
        return new long[] {all, jit};
    }

    void stop() {
        thread.interrupt();
    }

    List<Map<String, Object>> points() {
        synchronized (points) {
            return List.copyOf(points);
        }
    }
}
