package dev.leasecron.lease.sql;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLWarning;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLWarning;
import org.postgresql.util.ServerErrorMessage;

/**
 * A statement PostgreSQL answers with "committed locally, but the wait for the synchronous standby
 * was cancelled" fails, whatever language the server speaks; other warnings pass.
 */
class SynchronousCommitTest {

    /** The fields of a NoticeResponse as PostgreSQL sends them: a type letter, the value, a NUL each. */
    private static PSQLWarning notice(String message, String routine) {
        return new PSQLWarning(new ServerErrorMessage("SWARNING\0VWARNING\0C01000\0M" + message
                + "\0DThe transaction has already committed locally, but might not have been replicated to the standby.\0"
                + "Fsyncrep.c\0L295\0R" + routine + "\0"));
    }

    @Test
    void aCancelledWaitForTheSynchronousStandbyFailsTheStatement() {
        DataAccessException e = assertThrows(DataAccessException.class, () -> SynchronousCommit.check(
                notice("canceling wait for synchronous replication due to user request", "SyncRepWaitForLSN")));
        assertTrue(e.getMessage().contains("a failover may forget it"), e.getMessage());
    }

    @Test
    void aTranslatedMessageIsKnownByTheServerRoutine() {
        assertThrows(DataAccessException.class, () -> SynchronousCommit.check(
                notice("breche Warten auf synchrone Replikation ab wegen Benutzeraufforderung", "SyncRepWaitForLSN")));
    }

    @Test
    void theWarningIsFoundBehindOthersInTheChain() {
        SQLWarning first = new SQLWarning("something else", "01000");
        first.setNextWarning(new SQLWarning("canceling wait for synchronous replication due to user request", "01000"));
        assertThrows(DataAccessException.class, () -> SynchronousCommit.check(first));
    }

    @Test
    void otherWarningsAndNoneAtAllPass() {
        assertDoesNotThrow(() -> SynchronousCommit.check(null));
        assertDoesNotThrow(() -> SynchronousCommit.check(new SQLWarning("there is no transaction in progress", "25P01")));
        assertDoesNotThrow(() -> SynchronousCommit.check(notice("some other notice", "ProcessUtility")));
    }
}
