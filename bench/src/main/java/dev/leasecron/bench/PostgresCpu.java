package dev.leasecron.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time the benchmark's own PostgreSQL server has used, from /proc: the postmaster's own and its
 * reaped children's, plus every live child's (backends, WAL writer, checkpointer...). Linux only.
 */
final class PostgresCpu {
    private static final double TICKS_PER_MS = 100 / 1000.0; // USER_HZ is 100 on Linux

    private PostgresCpu() {}

    static long millis(Path pgData) {
        try {
            long postmaster = Long.parseLong(Files.readAllLines(pgData.resolve("postmaster.pid")).getFirst().trim());
            long ticks = 0;
            try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                for (Path proc : procs) {
                    String[] f = stat(proc);
                    if (f == null) {
                        continue;
                    }
                    long pid = Long.parseLong(proc.getFileName().toString());
                    long ppid = Long.parseLong(f[1]);
                    if (pid == postmaster) {
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
                    } else if (ppid == postmaster) {
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                }
            }
            return Math.round(ticks / TICKS_PER_MS);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The fields after the command name: f[0] is the state, f[1] the parent, f[11]/f[12] utime/stime. */
    private static String[] stat(Path proc) {
        try {
            String s = Files.readString(proc.resolve("stat"));
            return s.substring(s.lastIndexOf(')') + 2).split(" ");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
