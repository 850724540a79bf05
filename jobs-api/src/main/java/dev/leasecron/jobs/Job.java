package dev.leasecron.jobs;

import java.util.List;
import java.util.Map;

/**
 * A job type: the code a round runs. Plugins provide implementations through
 * {@link java.util.ServiceLoader} (a {@code META-INF/services/dev.leasecron.jobs.Job} entry); a job in
 * the jobs YAML names its implementation by {@link #type()}.
 *
 * <p>One instance serves every job of its type and every round of those jobs, possibly several
 * rounds at once on different threads, so an implementation keeps no per-round state in fields.
 * It needs a public no-argument constructor.
 */
public interface Job {

    /**
     * The name jobs use in their {@code type:} key, e.g. {@code shell}. Unique among the plugins a
     * daemon loads: two plugins with the same type fail start-up.
     */
    String type();

    /**
     * Checks a job's {@code params} before any round runs: at {@code validate} and when the daemon
     * loads or reloads the YAML. Each problem is one message naming the key, e.g.
     * {@code "params.command: required"}; an empty list means the params are usable.
     *
     * @param params the job's {@code params} mapping, after interpolation; never null
     */
    default List<String> checkParams(Map<String, Object> params) {
        return List.of();
    }

    /**
     * Runs one round. Returning normally is success; throwing is a failure, logged with its stack and
     * never rerun. The round may be cut short (shutdown, lost lease) or reach its timeout: then
     * {@link JobContext#cancellation()} fires and the running thread is interrupted, and the method
     * should return promptly. A round that ignores that after its lease was lost fails the process,
     * so the cluster never runs the same work twice at once.
     *
     * <p>A round stopped that way is cut short (or timed out) only when it throws the interruption
     * itself: an {@link InterruptedException}, a {@link LeaseLostException}, or a
     * {@link java.util.concurrent.CancellationException} (its cause the cancellation's
     * {@linkplain Cancellation#reason() reason}, as the built-in jobs throw), directly or as a cause.
     * Any other exception is the round's own failure, even when it comes after the cancellation:
     * the round ran to its end and is not run again. Returning normally after the cancellation is
     * success.
     *
     * @throws Exception the round failed; the message and stack are logged with the round
     */
    void run(JobContext context) throws Exception;
}
