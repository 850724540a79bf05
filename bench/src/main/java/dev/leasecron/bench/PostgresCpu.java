package dev.leasecron.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time the benchmark's own PostgreSQL server has used, from /proc: the postmaster's own and its
 * reaped children's, plus every live child's (backends, WAL writer, checkpointer...). Linux only.
 */
final class PostgresCpu {
    private static final double TICKS_PER_MS = 100 / 1000.0; // USER_HZ is 100 on Linux

    private PostgresCpu() {}

    static long millis(Path pgData) {
        return millisByKind(pgData).values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * {@link #millis} by kind of process, from the title PostgreSQL gives each ("postgres: walwriter",
     * "postgres: autovacuum worker bench", a backend's "postgres: USER DB HOST(PORT) idle" or "... [local] idle"), so a
     * difference of two calls says whether the statements, the autovacuum or the WAL took the CPU.
     * Children that ended (autovacuum workers mostly) are under "ended children".
     */
    static Map<String, Long> millisByKind(Path pgData) {
        Map<String, Long> byKind = new TreeMap<>();
        try {
            long postmaster = Long.parseLong(Files.readAllLines(pgData.resolve("postmaster.pid")).getFirst().trim());
            try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                for (Path proc : procs) {
                    String[] f = stat(proc);
                    if (f == null) {
                        continue;
                    }
                    long pid = Long.parseLong(proc.getFileName().toString());
                    if (pid == postmaster) {
                        byKind.merge("postmaster", ticksToMs(Long.parseLong(f[11]) + Long.parseLong(f[12])), Long::sum);
                        byKind.merge("ended children", ticksToMs(Long.parseLong(f[13]) + Long.parseLong(f[14])), Long::sum);
                    } else if (Long.parseLong(f[1]) == postmaster) {
                        byKind.merge(kind(proc), ticksToMs(Long.parseLong(f[11]) + Long.parseLong(f[12])), Long::sum);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // no server: nothing to say
        }
        return byKind;
    }

    private static String kind(Path proc) {
        try {
            String title = new String(Files.readAllBytes(proc.resolve("cmdline"))).replace('\0', ' ').trim();
            String t = title.startsWith("postgres: ") ? title.substring("postgres: ".length()) : title;
            if (t.contains("(") && t.contains(")") || t.contains("[local]")) {
                return "backends";
            }
            return t.startsWith("autovacuum worker") ? "autovacuum worker" : t.replaceAll("\\d+", "");
        } catch (IOException e) {
            return "?";
        }
    }

    private static long ticksToMs(long ticks) {
        return Math.round(ticks / TICKS_PER_MS);
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
