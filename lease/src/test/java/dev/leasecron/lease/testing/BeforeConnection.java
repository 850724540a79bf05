package dev.leasecron.lease.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A data source that runs a hook on the asking thread before each connection it hands out: to make a
 * database slow, unreachable for one thread, or to act at a chosen moment of a statement's path.
 */
public final class BeforeConnection {
    /** What runs before a connection is handed out; what it throws, the caller gets instead. */
    @FunctionalInterface
    public interface Hook {
        void run() throws SQLException;
    }

    private BeforeConnection() {}

    public static DataSource wrap(DataSource target, Hook hook) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        hook.run();
                    }
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
