package dev.leasecron.lease.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/** What a failed connection is reported as: the driver's words, not the pool's timeout. */
class DriverMessageTest {

    @Test
    void thePoolsTimeoutGivesWayToTheDriversCause() {
        SQLException driver = new SQLException("FATAL: password authentication failed for user \"leasecron\"", "28P01");
        SQLException pool = new SQLTransientConnectionException(
                "leasecron-primary - Connection is not available, request timed out after 5000ms", "28P01", driver);

        assertEquals("FATAL: password authentication failed for user \"leasecron\"", Dialect.driverMessage(pool));
    }

    @Test
    void theDriversMessageRatherThanTheSocketsBeneathIt() {
        SQLException driver = new SQLException("Connection to 127.0.0.1:1 refused.", "08001",
                new ConnectException("Connection refused"));

        assertEquals("Connection to 127.0.0.1:1 refused.", Dialect.driverMessage(
                new SQLTransientConnectionException("timed out", "08001", driver)));
    }

    @Test
    void aDriverExceptionWithoutMessageFallsBackToTheRootCause() {
        SQLException silent = new SQLException((String) null, new ConnectException("Connection refused"));

        assertEquals("Connection refused", Dialect.driverMessage(silent));
    }
}
