package dev.leasecron.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of one process (all its threads), from {@code /proc/PID/stat}. Linux only. */
final class ProcCpu {
    private static final long MS_PER_TICK = 10; // USER_HZ is 100 on Linux

    private ProcCpu() {}

    /** utime + stime of {@code pid} in ms, or -1 when the process is gone. */
    static long millis(long pid) {
        try {
            String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * MS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
