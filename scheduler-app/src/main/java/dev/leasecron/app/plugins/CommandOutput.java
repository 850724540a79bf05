package dev.leasecron.app.plugins;

import dev.leasecron.jobs.JobContext;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.MDC;

/**
 * A running command's stdout and stderr, copied line by line to the round's log, each line under
 * the round's {@code job} and {@code instant} (MDC fields, top-level in the JSON log, so a round's
 * output can be filtered out of many); at most a {@link LineBudget} of lines per round, and then one
 * {@code truncated} line saying how many were left out. Every stderr line, logged or not, feeds the
 * tail that a failure message quotes.
 */
final class CommandOutput {
    /** Lines logged per round, stdout and stderr together: at 8 KiB a line at most, 8 MiB of log. */
    static final int DEFAULT_MAX_LINES = 1_000;

    private static final int STDERR_TAIL_LINES = 20;
    private static final int STDERR_TAIL_CHARS = 2_000;

    private final Logger log;
    private final LineBudget budget;
    private final Tail stderrTail = new Tail(STDERR_TAIL_LINES, STDERR_TAIL_CHARS);
    private final Thread stdout;
    private final Thread stderr;
    private boolean reported;

    private CommandOutput(Process process, JobContext context, int maxLines) {
        this.log = context.log();
        this.budget = new LineBudget(maxLines);
        Map<String, String> fields = roundFields(context);
        String name = "shell-" + context.jobName() + "-" + process.pid();
        this.stdout = OutputPump.start(name + "-stdout", process.inputReader(), fields, line -> {
            if (budget.take()) {
                log.info("stdout: {}", line);
            }
        });
        this.stderr = OutputPump.start(name + "-stderr", process.errorReader(), fields, line -> {
            stderrTail.add(line);
            if (budget.take()) {
                log.info("stderr: {}", line);
            }
        });
    }

    /** Starts pumping the output of {@code process}, logging at most {@code maxLines} lines of it. */
    static CommandOutput start(Process process, JobContext context, int maxLines) {
        return new CommandOutput(process, context, maxLines);
    }

    /**
     * Waits for both streams to close, each for at most {@code grace}: a descendant left running may
     * hold them open, and the round does not wait on it longer.
     */
    void awaitEnd(Duration grace) throws InterruptedException {
        stdout.join(grace);
        stderr.join(grace);
    }

    /** The last lines of stderr read so far, for a failure message; empty when there were none. */
    String stderrTail() {
        return stderrTail.text();
    }

    /** Logs, once, how many lines were left out; nothing when none were. Called by the round's thread. */
    void reportTruncation() {
        long dropped = budget.dropped();
        if (dropped > 0 && !reported) {
            reported = true;
            log.warn("output truncated: {} more lines were not logged (a round logs the first {} lines of its"
                    + " command's stdout and stderr)", dropped, budget.maxLines());
        }
    }

    /**
     * The round thread's MDC (under the scheduler: job, instant, term, rerun) and the round's job and
     * instant, which the pump threads would not have otherwise: MDC belongs to a thread.
     */
    private static Map<String, String> roundFields(JobContext context) {
        Map<String, String> fields = new HashMap<>();
        Map<String, String> inherited = MDC.getCopyOfContextMap();
        if (inherited != null) {
            inherited.forEach((key, value) -> {
                if (value != null) {
                    fields.put(key, value);
                }
            });
        }
        fields.put("job", context.jobName());
        fields.put("instant", DateTimeFormatter.ISO_INSTANT.format(context.instant()));
        return Map.copyOf(fields);
    }
}
