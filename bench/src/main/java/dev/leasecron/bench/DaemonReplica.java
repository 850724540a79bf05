package dev.leasecron.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One leasecron replica as deployed: {@code java -jar leasecron.jar run} on a jobs file of its own, the
 * example plugin in its plugins folder, its JSON logs at INFO on stdout into a file (what a container
 * runtime does with them), its ops port with {@code /metrics} on. Nothing of the daemon is replaced.
 */
final class DaemonReplica {
    /** The image's JVM flags (Dockerfile), its 75 % of memory taken as a 1 GiB heap. */
    static final List<String> IMAGE_FLAGS = List.of("-XX:+UseG1GC", "-Xms1g", "-Xmx1g", "-XX:+ExitOnOutOfMemoryError");
    /** What a user typing {@code java -jar} gets, capped at the same 1 GiB. */
    static final List<String> PLAIN_FLAGS = List.of("-Xmx1g");

    private final Process process;
    private final int port;
    final Path log;
    private final Path config;
    /** The jobs file up to its {@code jobs:} key. */
    private final String head;

    private DaemonReplica(Process process, int port, Path log, Path config, String head) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.config = config;
        this.head = head;
    }

    /**
     * @param jfr whether to record a Flight Recorder profile of the whole run into {@code out.jfr}
     *     (settings "profile": execution samples every 10 ms, allocations, locks; and every JIT compilation
     *     and deoptimization, to see what the compiler still works on when a cell measures)
     */
    static DaemonReplica start(Path jar, Path plugins, List<String> jvmFlags, boolean jfr, String url, String user, int replica,
            int jobs, String schedule, Path out) throws IOException {
        // A directory of its own, as a ConfigMap's mount is: the daemon watches the jobs file's
        // directory, and the replicas' logs written beside it would wake that watch on every line.
        Path config = Files.createDirectories(Path.of(out + "-config")).resolve("leasecron.yaml");
        int port = 18080 + replica;
        String head = "database:\n  url: " + url + "\n  username: " + user + "\n  pool:\n    maxSize: " + Cell.POOL_SIZE
                + "\ninstance: bench-" + replica + "\nhttp:\n  port: " + port + "\nshutdownGrace: 2s\njobs:\n";
        Files.writeString(config, yaml(head, jobs, schedule));
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmFlags);
        if (jfr) {
            cmd.add("-XX:StartFlightRecording=settings=profile,jdk.Compilation#threshold=0ms,jdk.Deoptimization#enabled=true,filename=" + out + ".jfr");
        }
        cmd.addAll(List.of("-Xlog:gc:file=" + out + "-gc.log:time", "-jar", jar.toString(), "run", "--config",
                config.toString(), "--plugins", plugins.toString()));
        Path log = Path.of(out + ".log");
        Process p = new ProcessBuilder(cmd).redirectOutput(log.toFile()).redirectError(Path.of(out + ".err").toFile()).start();
        return new DaemonReplica(p, port, log, config, head);
    }

    private static String yaml(String head, int jobs, String schedule) {
        StringBuilder yaml = new StringBuilder(64 * jobs + 256).append(head);
        for (int j = 0; j < jobs; j++) {
            yaml.append("  - name: job-").append(j).append("\n    schedule: \"").append(schedule)
                    .append("\"\n    type: hello\n    catchUp: none\n");
        }
        return yaml.toString();
    }

    /**
     * Replaces the jobs file with the first {@code jobs} of its jobs, whole at once (written beside it,
     * then moved over it, as a ConfigMap's update lands): the running daemon reloads it.
     */
    void keepJobs(int jobs, String schedule) throws IOException {
        Path next = config.resolveSibling(config.getFileName() + ".next");
        Files.writeString(next, yaml(head, jobs, schedule));
        Files.move(next, config, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The ops port: {@code /metrics}, the probes, the dashboard. */
    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    long cpuMillis() {
        return ProcCpu.millis(process.pid());
    }

    boolean alive() {
        return process.isAlive();
    }

    /** True once the daemon logged that it started its jobs. */
    boolean started() throws IOException {
        try (var lines = Files.lines(log)) {
            return lines.limit(200).anyMatch(l -> l.contains("\"event\":\"daemon.started\""));
        }
    }

    /** SIGTERM, as an orchestrator stops a replica; SIGKILL if it has not exited in time. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
