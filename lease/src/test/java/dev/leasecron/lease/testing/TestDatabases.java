package dev.leasecron.lease.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The databases every lease test runs on: SQLite (a temporary file), PostgreSQL and MariaDB. Servers
 * come from {@code LEASECRON_TEST_POSTGRES_URL}/{@code _USER}/{@code _PASSWORD} and the
 * {@code LEASECRON_TEST_MARIADB_*} equivalents; where a URL is missing and a Docker engine is
 * available, Testcontainers starts one. A server that cannot be had skips its tests, or fails them
 * when {@code LEASECRON_TEST_REQUIRE_SERVERS=true} (as in CI).
 */
public final class TestDatabases {
    private static final List<Provided> PROVIDED = List.of(sqlite(), server("postgres"), server("mariadb"));

    private TestDatabases() {}

    /** One entry per database, for {@code @MethodSource}. A missing server's entry skips or fails. */
    public static Stream<TestDatabase> all() {
        return PROVIDED.stream().map(Provided::get);
    }

    /** The database of the given kind, or a skip/failure as for {@link #all()}. */
    public static TestDatabase of(String kind) {
        return PROVIDED.stream().filter(p -> p.kind.equals(kind)).findFirst().orElseThrow().get();
    }

    private record Provided(String kind, String url, String user, String password, String missing) {
        TestDatabase get() {
            if (url == null) {
                if (Boolean.parseBoolean(System.getenv("LEASECRON_TEST_REQUIRE_SERVERS"))) {
                    throw new IllegalStateException(kind + " is required (LEASECRON_TEST_REQUIRE_SERVERS=true) but " + missing);
                }
                Assumptions.abort(kind + " skipped: " + missing);
            }
            return new TestDatabase(kind, url, user, password);
        }
    }

    private static Provided sqlite() {
        try {
            Path dir = Files.createTempDirectory("leasecron-sqlite");
            dir.toFile().deleteOnExit();
            // busy_timeout: separate pools on one file stand for separate processes and must queue.
            String url = "jdbc:sqlite:" + dir.resolve("leases.db") + "?journal_mode=WAL&busy_timeout=10000";
            return new Provided("sqlite", url, null, null, null);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Provided server(String kind) {
        String prefix = "LEASECRON_TEST_" + kind.toUpperCase() + "_";
        String url = System.getenv(prefix + "URL");
        if (url != null && !url.isBlank()) {
            return new Provided(kind, url, System.getenv(prefix + "USER"), System.getenv(prefix + "PASSWORD"), null);
        }
        if (!dockerAvailable()) {
            return new Provided(kind, null, null, null, prefix + "URL is not set and no Docker engine is available");
        }
        var container = kind.equals("postgres")
                ? new PostgreSQLContainer("postgres:15-alpine")
                : new MariaDBContainer("mariadb:10.11");
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
        return new Provided(kind, container.getJdbcUrl(), container.getUsername(), container.getPassword(), null);
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) {
            return false;
        }
    }
}
