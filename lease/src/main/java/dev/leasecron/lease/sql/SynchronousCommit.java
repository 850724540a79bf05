package dev.leasecron.lease.sql;

import java.sql.SQLWarning;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.exception.DataAccessException;

/**
 * A lease write that PostgreSQL committed without its synchronous standby counts as failed.
 *
 * <p>With synchronous replication, a commit waits until a standby has the transaction. When that wait
 * is cancelled, as the statement's timeout does while no standby answers, PostgreSQL keeps the
 * commit it has made locally, says so in a warning ("canceling wait for synchronous replication due
 * to user request") and answers the statement as if all were well. A failover to the standby then
 * forgets the write: a claim the replica acted on, a renewal it counted, a finish it recorded. So such
 * an answer is read as a failure, the same as no answer: a claim is tried again (and finds its own
 * claim holding the name, so the instant is given up, never run twice), a renewal does not move the
 * local deadline, and a finish is in doubt, leaving the round to be rerun if the finish is lost.
 */
final class SynchronousCommit {
    private static final String WARNING_STATE = "01000";
    /** The server function that issues the warning: its name is not translated, unlike the message. */
    private static final String ROUTINE = "SyncRepWaitForLSN";

    private SynchronousCommit() {}

    /** Turns the warning into a failure of the statement, for the statements jOOQ runs. */
    static final ExecuteListener LISTENER = new ExecuteListener() {
        @Override
        public void warning(ExecuteContext ctx) {
            check(ctx.sqlWarning());
        }
    };

    /**
     * @throws DataAccessException {@code warnings} say the statement's commit did not wait for the
     *     synchronous standby
     */
    static void check(SQLWarning warnings) {
        for (SQLWarning w = warnings; w != null; w = w.getNextWarning()) {
            if (WARNING_STATE.equals(w.getSQLState()) && (mentionsReplication(w) || ROUTINE.equals(routine(w)))) {
                // No cause: the failure's reason, as the callers log it, is this message, not the server's.
                throw new DataAccessException("committed on the primary, but its wait for a synchronous standby was"
                        + " cancelled: a failover may forget it (" + w.getMessage() + ")");
            }
        }
    }

    private static boolean mentionsReplication(SQLWarning w) {
        return w.getMessage() != null && w.getMessage().contains("synchronous replication");
    }

    /**
     * The server routine PostgreSQL's JDBC driver reports with the warning, read reflectively so that
     * this module needs no driver to compile; null for another driver's warning.
     */
    private static String routine(SQLWarning w) {
        try {
            Object message = w.getClass().getMethod("getServerErrorMessage").invoke(w);
            return message == null ? null : (String) message.getClass().getMethod("getRoutine").invoke(message);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
