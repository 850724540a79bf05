package dev.leasecron.faults.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the server tools, as the servers' own system user when the harness runs as root. */
final class Commands {
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private Commands() {}

    /** Runs {@code command} as {@code user} (when root), waits for it and fails on a non-zero exit. */
    static void run(String user, Path log, String... command) throws IOException, InterruptedException {
        Process p = start(user, log, command);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + String.join(" ", command));
        }
        if (p.exitValue() != 0) {
            throw new IOException("exit " + p.exitValue() + ": " + String.join(" ", command) + " (see " + log + ")");
        }
    }

    /** Starts {@code command} as {@code user} (when root), its output appended to {@code log}. */
    static Process start(String user, Path log, String... command) throws IOException {
        List<String> argv = new ArrayList<>();
        if (ROOT && user != null) {
            argv.addAll(List.of("runuser", "-u", user, "--"));
        }
        argv.addAll(List.of(command));
        return new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /** Gives {@code dir} (and what is under it) to {@code user}, when root. */
    static void own(String user, Path dir) throws IOException, InterruptedException {
        if (ROOT) {
            run(null, dir.resolveSibling(dir.getFileName() + ".chown.log"), "chown", "-R", user + ":" + user, dir.toString());
        }
    }

    static void signal(long pid, String signal) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor();
    }
}
