package dev.leasecron.lease.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.SQLTransientConnectionException;
import javax.sql.DataSource;

/**
 * A database that can be made unreachable: while down, every request for a connection fails at once,
 * as when the network drops the database's packets and the pool has nothing left to hand out.
 */
public final class Outage {
    private final DataSource dataSource;
    private volatile boolean down;

    public Outage(DataSource target) {
        this.dataSource = (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (down && method.getName().equals("getConnection")) {
                        throw new SQLTransientConnectionException("the database is unreachable (test outage)");
                    }
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public void down() {
        down = true;
    }

    public void up() {
        down = false;
    }
}
