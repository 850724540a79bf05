package dev.leasecron.bench;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

/**
 * Counts the SQL statements a scheduler sends, by wrapping its pool: every {@code execute*} call on a
 * statement the pool's connections hand out is one statement (a JDBC batch counts once), and every
 * {@code commit}/{@code rollback} is counted apart. Nothing is changed on the way through.
 */
final class StatementCounter {
    final LongAdder statements = new LongAdder();
    final LongAdder commits = new LongAdder();

    DataSource wrap(DataSource target) {
        return proxy(DataSource.class, target);
    }

    long statements() {
        return statements.sum();
    }

    long commits() {
        return commits.sum();
    }

    @SuppressWarnings("unchecked")
    private <T> T proxy(Class<T> type, T target) {
        InvocationHandler handler = (self, method, args) -> {
            String name = method.getName();
            if (name.equals("unwrap") && args != null && args[0] == DataSource.class) {
                return self;
            }
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (target instanceof Statement && name.startsWith("execute")) {
                statements.increment();
            } else if (target instanceof Connection && (name.equals("commit") || name.equals("rollback"))) {
                commits.increment();
            }
            if (result instanceof Connection c) {
                return proxy(Connection.class, c);
            }
            if (result instanceof java.sql.CallableStatement s) {
                return proxy(java.sql.CallableStatement.class, s);
            }
            if (result instanceof java.sql.PreparedStatement s) {
                return proxy(java.sql.PreparedStatement.class, s);
            }
            if (result instanceof Statement s) {
                return proxy(Statement.class, s);
            }
            return result;
        };
        return (T) Proxy.newProxyInstance(StatementCounter.class.getClassLoader(), new Class<?>[] {type}, handler);
    }
}
