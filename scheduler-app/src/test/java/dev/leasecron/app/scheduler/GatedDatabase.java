package dev.leasecron.app.scheduler;

import dev.leasecron.lease.testing.BeforeConnection;
import java.sql.SQLException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A database one thread cannot reach while the gate is shut: a connection asked for on the thread
 * named {@code thread} waits until {@link #open()}, as a statement would behind a stalled network. The
 * other threads go through.
 */
final class GatedDatabase {
    private final DataSource dataSource;
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private final AtomicInteger waiting = new AtomicInteger();

    GatedDatabase(DataSource target, String thread) {
        this.dataSource = BeforeConnection.wrap(target, () -> {
            if (Thread.currentThread().getName().equals(thread)) {
                waiting.incrementAndGet();
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted at the gate", e);
                } finally {
                    waiting.decrementAndGet();
                }
            }
        });
    }

    DataSource dataSource() {
        return dataSource;
    }

    void shut() {
        gate = new CountDownLatch(1);
    }

    void open() {
        gate.countDown();
    }

    /** Whether a connection is waiting at the gate. */
    boolean waiting() {
        return waiting.get() > 0;
    }
}
