package dev.leasecron.app.scheduler;

import dev.leasecron.lease.testing.BeforeConnection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A database that answers, slowly: while a delay is set, every request for a connection waits that
 * long first, as a statement would behind a congested network or a busy server.
 */
final class SlowDatabase {
    private final DataSource dataSource;
    private volatile Duration delay = Duration.ZERO;
    private final AtomicInteger slowed = new AtomicInteger();

    SlowDatabase(DataSource target) {
        this.dataSource = BeforeConnection.wrap(target, () -> {
            Duration wait = delay;
            if (wait.isPositive()) {
                slowed.incrementAndGet();
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted while the database was slow", e);
                }
            }
        });
    }

    DataSource dataSource() {
        return dataSource;
    }

    void delay(Duration d) {
        delay = d;
    }

    /** How many connections were handed out late. */
    int slowed() {
        return slowed.get();
    }
}
