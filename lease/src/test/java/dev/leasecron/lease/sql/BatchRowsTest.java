package dev.leasecron.lease.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The text of a batch statement as each dialect gets it. MySQL's is checked here only: no MySQL
 * server runs the tests, and MariaDB reached through MySQL's driver gets the MySQL dialect.
 */
class BatchRowsTest {
    private static final List<String> COLUMNS = List.of("b_name", "b_term");
    private static final List<List<?>> ROWS = List.of(List.of("a", 1L), List.of("b", 2L));

    private static String update(Dialect dialect) {
        return JoinedUpdate.of(dialect, COLUMNS, ROWS, set -> set.sql("term = b.b_term"),
                where -> where.sql("name = b.b_name")).text().toLowerCase(Locale.ROOT);
    }

    @Test
    void mysqlAndMariadbJoinAUnionEveryVersionOfEitherRuns() {
        for (Dialect d : List.of(Dialect.MYSQL, Dialect.MARIADB)) {
            String sql = update(d);
            assertEquals("update gst_leases cross join (select ? as b_name, ? as b_term union all select ?, ?) as b"
                    + " set term = b.b_term where name = b.b_name", sql, d.toString());
            assertFalse(sql.contains("values"), d + " must not use VALUES ROW, which MariaDB refuses: " + sql);
        }
    }

    @Test
    void postgresBindsOneArrayPerColumnWhateverTheRows() {
        // The rows locked in name order before they are written, as a claim locks them.
        String sql = "with b as materialized (select b.* from gst_leases l join unnest(cast(? as text[]), cast(? as bigint[]))"
                + " as b (b_name, b_term) on l.name = b.b_name order by l.name for update of l)"
                + " update gst_leases set term = b.b_term from b where name = b.b_name";
        assertEquals(sql, update(Dialect.POSTGRES));
        assertEquals(sql, JoinedUpdate.of(Dialect.POSTGRES, COLUMNS, List.of(List.of("a", 1L)),
                set -> set.sql("term = b.b_term"), where -> where.sql("name = b.b_name")).text().toLowerCase(Locale.ROOT),
                "one row or many, the same text");
    }

    @Test
    void aPostgresArrayLiteralQuotesEveryElementAndEscapesQuotesAndBackslashesOnly() {
        assertEquals("{\"a\",\"b,c\",\"{d}\",\"e\\\"f\",\"g\\\\h\",\"NULL\",\"7\"}",
                BatchStatement.arrayLiteral(new Object[] {"a", "b,c", "{d}", "e\"f", "g\\h", "NULL", 7L}));
    }

    @Test
    void sqliteNamesTheColumnsWithAnEmptySelectBeforeValues() {
        String sql = update(Dialect.SQLITE);
        assertTrue(sql.startsWith("update gst_leases set term = b.b_term from (select null as b_name, null as b_term"
                + " where 1 = 0 union all select * from (values (?, ?), (?, ?))) as b"), sql);
    }
}
