package dev.leasecron.lease.sql;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The derived table of a batch's rows as each dialect renders it. MySQL's is checked here only: no
 * MySQL server runs the tests, and MariaDB reached through MySQL's driver gets the MySQL dialect.
 */
class BatchRowsTest {
    private static String render(Dialect dialect) {
        DSLContext dsl = DSL.using(dialect.jooq());
        Sql sql = new Sql(dsl, dialect, dialect.nowMillis(), 15_000);
        return dsl.render(dsl.selectFrom(sql.rows(List.of("b_name", "b_term"), List.of(List.of("a", 1L), List.of("b", 2L)))))
                .toLowerCase(Locale.ROOT);
    }

    @Test
    void mysqlAndMariadbGetAUnionEveryVersionOfEitherRuns() {
        for (Dialect d : List.of(Dialect.MYSQL, Dialect.MARIADB)) {
            String sql = render(d);
            assertTrue(sql.contains("union all"), d + ": " + sql);
            assertFalse(sql.contains("values"), d + " must not use VALUES ROW, which MariaDB refuses: " + sql);
        }
    }

    @Test
    void postgresAndSqliteGetValues() {
        for (Dialect d : List.of(Dialect.POSTGRES, Dialect.SQLITE)) {
            assertTrue(render(d).contains("values"), d + ": " + render(d));
        }
    }
}
