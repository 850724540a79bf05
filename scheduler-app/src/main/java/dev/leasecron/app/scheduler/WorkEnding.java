package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseScope;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;

/**
 * How a round's work ended, told from what it threw and from what ended its scope.
 *
 * <p>A round is cut short only when what it threw is the interruption itself: the lease lost, or the
 * scope ended for a shutdown and the work stopped because of it. A failure of the work's own (an
 * exit code, an I/O error, a bug) has run to its end even when a shutdown or a loss came while it was
 * failing: it is failed, finished and never run again. The same goes for the job's timeout: only a
 * round that stopped because of it timed out.
 *
 * <p>What counts as the interruption, anywhere along the error's causes: the scope's reason itself, a
 * lost lease (the lease module's {@code LeaseLostException} or the plugin API's, also from a guarded
 * transaction that found the lease gone before the renewals did), and, once the scope has ended, what an interrupted thread or a cancelled task throws
 * ({@link InterruptedException}, {@link InterruptedIOException}, {@link ClosedByInterruptException},
 * {@link CancellationException}, which the built-in jobs throw with the scope's reason as cause).
 */
final class WorkEnding {
    /** Deep enough for any wrapping seen in practice; a cycle of causes ends here too. */
    private static final int MAX_CAUSES = 32;

    private WorkEnding() {}

    /** The round's outcome: {@code error} is what the work threw, null when it returned. */
    static Outcome outcome(Throwable error, LeaseScope work) {
        if (error == null) {
            return Outcome.OK;
        }
        Throwable stop = work.reason();
        if (!isInterruption(error, stop)) {
            return Outcome.FAILED;
        }
        return stop instanceof TimeoutException ? Outcome.TIMEOUT : Outcome.CUT_SHORT;
    }

    /**
     * Why a round that did not return normally ended, for its end's log entry. A round cut short names
     * the loss when its lease is known lost, even when a shutdown ended its scope first and the loss
     * came while it wound down: the loss is what leaves the name to others.
     *
     * @param loss why the round's lease was lost, when it is known lost; null otherwise
     */
    static String reason(Outcome outcome, Throwable error, String loss, LeaseScope work) {
        Throwable stop = work.reason();
        if (outcome == Outcome.CUT_SHORT && loss != null) {
            return loss;
        }
        if ((outcome == Outcome.CUT_SHORT || outcome == Outcome.TIMEOUT) && stop != null) {
            return stop.getMessage();
        }
        if (outcome == Outcome.CUT_SHORT) {
            return error.toString();
        }
        return error.getMessage() == null ? error.getClass().getName() : error.getMessage();
    }

    /** Whether {@code error} is the interruption itself; {@code stop} is why the scope ended, null if it has not. */
    static boolean isInterruption(Throwable error, Throwable stop) {
        Throwable t = error;
        for (int i = 0; t != null && i < MAX_CAUSES; i++, t = t.getCause()) {
            if (t == stop || t instanceof dev.leasecron.lease.LeaseLostException
                    || t instanceof dev.leasecron.jobs.LeaseLostException) {
                return true;
            }
            if (stop != null && (t instanceof InterruptedException || t instanceof InterruptedIOException
                    || t instanceof ClosedByInterruptException || t instanceof CancellationException)) {
                return true;
            }
        }
        return false;
    }
}
