package dev.leasecron.app.scheduler;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
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
        this.dataSource = (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Duration wait = delay;
                    if (method.getName().equals("getConnection") && wait.isPositive()) {
                        slowed.incrementAndGet();
                        try {
                            Thread.sleep(wait);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new SQLException("interrupted while the database was slow", e);
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

    void delay(Duration d) {
        delay = d;
    }

    /** How many connections were handed out late. */
    int slowed() {
        return slowed.get();
    }
}
