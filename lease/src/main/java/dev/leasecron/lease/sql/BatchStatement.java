package dev.leasecron.lease.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jooq.exception.DataAccessException;

/**
 * A batch statement's text and its bind values, appended together so that each value sits at its
 * own placeholder, run through plain JDBC on a connection of the {@link Sql} it is given.
 *
 * <p>Why not jOOQ, as every single-row statement is: a batch statement grows with its rows (a
 * 500-row claim binds 2,500 values), and jOOQ builds, renders and binds a query tree of thousands of
 * parts for each one, 10-20 ms of CPU warm and far more cold. These statements run once per instant,
 * on the path between an instant and the start of its rounds, so their code stays cold for the JIT
 * and their cost lands on every round's fire delay. A string builder does the same for a fraction.
 */
final class BatchStatement {
    /** Reads one row of a result. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    private final StringBuilder text = new StringBuilder(1024);
    private final List<Object> values = new ArrayList<>();

    /** Appends SQL text as is: never a value from outside, which goes through {@link #value}. */
    BatchStatement sql(String part) {
        text.append(part);
        return this;
    }

    /** Appends a placeholder bound to {@code value}, a {@link String} or a {@link Long}. */
    BatchStatement value(Object value) {
        text.append('?');
        values.add(value);
        return this;
    }

    /**
     * Appends one placeholder bound to {@code values} as a PostgreSQL {@code text[]}: any number of
     * names or tokens as one value.
     */
    BatchStatement textArray(Collection<String> values) {
        return array("text", values.toArray());
    }

    /**
     * Appends a join of {@code column} with {@code names} as one PostgreSQL {@code text[]} value. A join,
     * not {@code column = ANY(?)}: in a prepared statement's generic plan that is a scan comparing each
     * row with every name of the array in turn.
     */
    BatchStatement joinNames(String column, Collection<String> names) {
        return sql(" JOIN unnest(").textArray(names).sql(") AS n (n_name) ON " + column + " = n.n_name");
    }

    /**
     * The array travels as its literal, {@code {"a","b"}}, cast by the statement: built here at its
     * final size, where the driver's array value grows a buffer by copies, then keeps its own string.
     */
    private BatchStatement array(String type, Object[] elements) {
        text.append("CAST(? AS ").append(type).append("[])");
        values.add(arrayLiteral(elements));
        return this;
    }

    /** A PostgreSQL array literal of {@code elements}, each quoted: no text inside can end or split it. */
    static String arrayLiteral(Object[] elements) {
        int size = 2;
        for (Object e : elements) {
            size += e.toString().length() + 3;
        }
        StringBuilder literal = new StringBuilder(size + 16).append('{');
        for (int i = 0; i < elements.length; i++) {
            if (i > 0) {
                literal.append(',');
            }
            String element = elements[i].toString();
            literal.append('"');
            for (int c = 0; c < element.length(); c++) {
                char ch = element.charAt(c);
                if (ch == '"' || ch == '\\') {
                    literal.append('\\');
                }
                literal.append(ch);
            }
            literal.append('"');
        }
        return literal.append('}').toString();
    }

    /** Appends {@code other}'s text and values, in place. */
    BatchStatement append(BatchStatement other) {
        text.append(other.text);
        values.addAll(other.values);
        return this;
    }

    /** Appends {@code (?, ?, ...)}, one placeholder per value. */
    BatchStatement list(Collection<?> values) {
        text.append('(');
        String separator = "";
        for (Object v : values) {
            text.append(separator);
            value(v);
            separator = ", ";
        }
        text.append(')');
        return this;
    }

    /**
     * Appends the derived table {@code b} of {@code rows}, its columns named {@code columns}: the
     * per-row input of a batch write. On PostgreSQL {@code unnest} of one array per column, so the
     * statement binds one value per column, not one per cell, and its text is the same for any number
     * of rows; on SQLite {@code VALUES}, after a column-naming empty SELECT since SQLite cannot name a
     * {@code VALUES} table's columns; on MySQL and MariaDB a {@code UNION ALL} of one-row SELECTs,
     * which every version of either runs (MariaDB has no {@code VALUES ROW(...)}).
     */
    BatchStatement rows(Dialect dialect, List<String> columns, List<List<?>> rows) {
        return switch (dialect) {
            case POSTGRES -> unnest(columns, rows);
            case SQLITE -> sql("(SELECT " + String.join(", ", columns.stream().map(c -> "NULL AS " + c).toList())
                    + " WHERE 1 = 0 UNION ALL SELECT * FROM (").valuesRows(rows).sql(")) AS b");
            case MYSQL, MARIADB -> unionAll(columns, rows);
        };
    }

    private BatchStatement unnest(List<String> columns, List<List<?>> rows) {
        text.append("unnest(");
        for (int i = 0; i < columns.size(); i++) {
            int column = i;
            Object[] cells = rows.stream().map(row -> row.get(column)).toArray();
            sql(i == 0 ? "" : ", ").array(cells[0] instanceof Long ? "bigint" : "text", cells);
        }
        return sql(") AS b (" + String.join(", ", columns) + ")");
    }

    private BatchStatement unionAll(List<String> columns, List<List<?>> rows) {
        text.append('(');
        for (int r = 0; r < rows.size(); r++) {
            text.append(r == 0 ? "SELECT " : " UNION ALL SELECT ");
            List<?> row = rows.get(r);
            for (int i = 0; i < row.size(); i++) {
                text.append(i == 0 ? "" : ", ");
                value(row.get(i));
                if (r == 0) {
                    text.append(" AS ").append(columns.get(i));
                }
            }
        }
        return sql(") AS b");
    }

    private BatchStatement valuesRows(List<List<?>> rows) {
        text.append("VALUES ");
        String separator = "";
        for (List<?> row : rows) {
            text.append(separator);
            list(row);
            separator = ", ";
        }
        return this;
    }

    /** Runs the statement; returns its row count. */
    int execute(Sql on) {
        return run(on, PreparedStatement::executeUpdate);
    }

    /** Runs the statement, a query or a write with {@code RETURNING}; returns its rows. */
    <T> List<T> fetch(Sql on, RowReader<T> reader) {
        return run(on, ps -> {
            List<T> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(reader.read(rs));
                }
            }
            return rows;
        });
    }

    /** The statement's text, for tests. */
    String text() {
        return text.toString();
    }

    @FunctionalInterface
    private interface Execution<T> {
        T run(PreparedStatement ps) throws SQLException;
    }

    private <T> T run(Sql on, Execution<T> execution) {
        String sql = text.toString();
        return on.dsl().connectionResult(connection -> {
            try (PreparedStatement ps = prepare(connection, sql, on)) {
                T result = execution.run(ps);
                SynchronousCommit.check(ps.getWarnings());
                return result;
            } catch (SQLException e) {
                throw new DataAccessException(e.getMessage(), e);
            }
        });
    }

    private PreparedStatement prepare(Connection connection, String sql, Sql on) throws SQLException {
        PreparedStatement ps = connection.prepareStatement(sql);
        try {
            Integer timeout = on.dsl().settings().getQueryTimeout();
            if (timeout != null && timeout > 0) {
                ps.setQueryTimeout(timeout);
            }
            for (int i = 0; i < values.size(); i++) {
                Object v = values.get(i);
                if (v instanceof Long l) {
                    ps.setLong(i + 1, l);
                } else {
                    ps.setString(i + 1, (String) v);
                }
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }
}
