package dev.leasecron.app.plugins;

import dev.leasecron.jobs.Cancellation;
import dev.leasecron.jobs.Job;
import dev.leasecron.jobs.JobContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The built-in {@code shell} job type: runs a command as a child process per round.
 *
 * <p>Params: {@code command}, an argv list ({@code ["pg_dump", "-f", "/backup/db.sql"]}) or one
 * string run by {@code sh -c}; {@code env}, a mapping of names to strings; {@code workingDir}. The
 * command inherits the daemon's environment, then {@code env}, then {@code LEASECRON_JOB},
 * {@code LEASECRON_INSTANT} (ISO-8601 UTC), {@code LEASECRON_TERM} and {@code LEASECRON_RERUN}
 * ({@code true}/{@code false}), which {@code env} cannot override. Its stdin is empty.
 *
 * <p>Each line of its stdout and stderr goes to the round's log with the round's {@code job} and
 * {@code instant} fields: long lines are cut, and after the first
 * {@value CommandOutput#DEFAULT_MAX_LINES} lines of a round the rest are only counted, in one
 * {@code output truncated} line at the end. Exit code 0 is success; any other is a failure whose
 * message holds the code and the last lines of stderr.
 * When the round is cancelled or its thread interrupted, the command and every process it started
 * get SIGTERM, and SIGKILL {@link #DEFAULT_GRACE} later if still alive; the round then ends.
 *
 * <p>The round ends when the command exits. A process it left running in the background is not
 * waited for (beyond the grace, for output still in the pipes) and not killed: once its parent is
 * gone it cannot be told apart from the host's other processes.
 *
 * <p>When the daemon dies mid-round, even by SIGKILL, the command and the processes it started in
 * its process group are killed ({@link Lifeline}), so the instant's rerun does not run beside them.
 * Processes it moved out of its group survive the daemon, as does everything where {@code /bin/sh}
 * is missing.
 *
 * <p>Where {@code setsid} is installed (Linux), the command runs in a session and process
 * group of its own: a signal sent to the daemon's process group (Ctrl-C in a terminal, {@code timeout},
 * a supervisor that signals the group) reaches the daemon only, which gives its rounds the shutdown
 * grace and then stops and releases them as above, to run again elsewhere. Sharing the group, the
 * command would die with the signal at once and its round be logged failed, never run again.
 */
public final class ShellJob implements Job {
    /** How long a cancelled command has between SIGTERM and SIGKILL. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);

    /** {@code setsid} (util-linux, or BusyBox), where installed: it starts the command in a session of its own. */
    private static final Optional<Path> SETSID = Stream.of("/usr/bin/setsid", "/bin/setsid").map(Path::of)
            .filter(Files::isExecutable).findFirst();

    private final Duration grace;
    private final int maxLines;

    /** The job as ServiceLoader creates it, with the default grace and output bound. */
    public ShellJob() {
        this(DEFAULT_GRACE);
    }

    ShellJob(Duration grace) {
        this(grace, CommandOutput.DEFAULT_MAX_LINES);
    }

    ShellJob(Duration grace, int maxLines) {
        this.grace = grace;
        this.maxLines = maxLines;
    }

    @Override
    public String type() {
        return "shell";
    }

    @Override
    public List<String> checkParams(Map<String, Object> params) {
        ParamsReader reader = new ParamsReader(params);
        ShellCommand.read(reader);
        return reader.problems();
    }

    @Override
    public void run(JobContext context) throws Exception {
        ParamsReader reader = new ParamsReader(context.params());
        ShellCommand command = ShellCommand.read(reader);
        reader.requireValid();

        Process process = start(command, context);
        Lifeline.Held lifeline = Lifeline.hold(process);
        CommandOutput output = CommandOutput.start(process, context, maxLines);
        int exitCode;
        try {
            exitCode = awaitExitOrCancellation(process, context.cancellation());
        } catch (Exception stopped) {
            output.reportTruncation();
            throw stopped;
        } finally {
            // The command has exited or been stopped: the round, not the daemon's death, ended it.
            lifeline.release();
        }
        output.awaitEnd(grace);
        output.reportTruncation();
        if (exitCode != 0) {
            String tail = output.stderrTail();
            throw new JobFailedException("command exited with code " + exitCode
                    + (tail.isEmpty() ? " and no stderr output" : "; end of stderr:\n" + tail));
        }
        context.log().info("command exited with code 0");
    }

    private static Process start(ShellCommand command, JobContext context) throws JobFailedException {
        ProcessBuilder builder = new ProcessBuilder(Lifeline.around(inSessionOfItsOwn(command.argv())));
        Map<String, String> env = builder.environment();
        env.putAll(command.env());
        env.put("LEASECRON_JOB", context.jobName());
        env.put("LEASECRON_INSTANT", DateTimeFormatter.ISO_INSTANT.format(context.instant()));
        env.put("LEASECRON_TERM", Long.toString(context.term()));
        env.put("LEASECRON_RERUN", Boolean.toString(context.rerun()));
        command.workingDir().ifPresent(dir -> builder.directory(dir.toFile()));
        try {
            return builder.start();
        } catch (IOException e) {
            throw new JobFailedException("cannot start " + command.argv().getFirst()
                    + command.workingDir().map(dir -> " in " + dir).orElse("") + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code argv} started through {@code setsid}, when installed. A process the JVM starts leads no
     * process group, so {@code setsid} needs no fork and runs the command in place: the pid the round
     * watches and kills, and the exit code it reads, are the command's.
     */
    private static List<String> inSessionOfItsOwn(List<String> argv) {
        return SETSID.map(setsid -> Stream.concat(Stream.of(setsid.toString()), argv.stream()).toList()).orElse(argv);
    }

    /**
     * The process's exit code; or, when the round is cancelled or the thread interrupted before the
     * process exits, kills the process tree and throws.
     *
     * @throws CancellationException the round was cancelled; its cause is the cancellation's reason
     * @throws InterruptedException the thread was interrupted without a cancellation
     */
    private int awaitExitOrCancellation(Process process, Cancellation cancellation) throws Exception {
        CompletableFuture<Void> cancelled = new CompletableFuture<>();
        AutoCloseable registration = cancellation.onCancel(() -> cancelled.complete(null));
        try {
            CompletableFuture.anyOf(process.onExit(), cancelled).get();
        } catch (InterruptedException e) {
            ProcessTree.kill(process.toHandle(), grace);
            if (!cancellation.isCancelled()) {
                throw e;
            }
            // The interrupt came with the cancellation; keep it for the caller.
            Thread.currentThread().interrupt();
            throw cancelled(process, cancellation);
        } finally {
            registration.close();
        }
        if (process.isAlive()) {
            ProcessTree.kill(process.toHandle(), grace);
            throw cancelled(process, cancellation);
        }
        return process.exitValue();
    }

    private static CancellationException cancelled(Process process, Cancellation cancellation) {
        Throwable reason = cancellation.reason();
        CancellationException stopped = new CancellationException("command (pid " + process.pid()
                + ") stopped: the round was cancelled" + (reason == null ? "" : " (" + reason + ")"));
        stopped.initCause(reason);
        return stopped;
    }
}
