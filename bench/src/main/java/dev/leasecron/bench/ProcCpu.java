package dev.leasecron.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** CPU time of one process, all its threads or by thread name, from {@code /proc/PID/stat}. Linux only. */
final class ProcCpu {
    private static final long MS_PER_TICK = 10; // USER_HZ is 100 on Linux

    private ProcCpu() {}

    /** utime + stime of {@code pid} in ms, or -1 when the process is gone. */
    static long millis(long pid) {
        try {
            return millis(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU of the live threads of {@code pid} in ms, summed by name with its numbers taken out ("GC Thread#1"
     * and "GC Thread#0" are "GC Thread#", each virtual threads' carrier "ForkJoinPool-1-worker-"), so a
     * difference of two calls says where a process's CPU went: JIT, GC, the log writer, the rounds.
     */
    static Map<String, Long> millisByThread(long pid) {
        Map<String, Long> byName = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "");
                    byName.merge(name, millis(stat), Long::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
        return byName;
    }

    /** Whether a name of {@link #millisByThread} is the JIT's: HotSpot's "C1/C2 CompilerThreadN", cut to 15 characters. */
    static boolean jit(String threadName) {
        return threadName.contains("CompilerThre");
    }

    private static long millis(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * MS_PER_TICK;
    }
}
