package dev.leasecron.app.scheduler;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
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
        this.dataSource = (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection") && Thread.currentThread().getName().equals(thread)) {
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
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
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
