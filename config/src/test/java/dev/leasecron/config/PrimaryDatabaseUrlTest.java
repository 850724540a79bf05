package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Validation judges the primary database by its URL's scheme, without opening it. */
class PrimaryDatabaseUrlTest {
    private static final ConfigLoader LOADER = new ConfigLoader(Map.of("HOSTNAME", "replica-1"), JobTypeChecker.acceptAny());

    private static String file(String url, String scopeOfSecondJob) {
        return """
                database:
                  url: %s
                jobs:
                  - name: everywhere
                    schedule: "@hourly"
                    type: shell
                    scope: replica
                  - name: once
                    schedule: "@daily"
                    type: shell
                %s""".formatted(url, scopeOfSecondJob.isEmpty() ? "" : "    scope: " + scopeOfSecondJob + "\n");
    }

    private static List<String> errors(String yaml) {
        return assertThrows(ConfigException.class, () -> LOADER.parse("jobs.yaml", yaml)).errors().stream()
                .map(ConfigError::toString).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:postgresql://db:5432/leasecron", "jdbc:mysql://db/leasecron", "jdbc:mariadb://db/leasecron",
        "jdbc:sqlite:/var/lib/leasecron.db"})
    void theDatabasesLeasesRunOnAreAccepted(String url) throws ConfigException {
        assertEquals(url, LOADER.parse("jobs.yaml", file(url, "")).database().primary().url());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:h2:mem:leasecron", "jdbc:oracle:thin:@db:1521/x", "jdbc:sqlserver://db;databaseName=x"})
    void anyOtherDatabaseIsAnErrorAtTheUrlListingWhatRuns(String url) {
        String scheme = url.split(":")[1];
        assertEquals(List.of("jobs.yaml:2:8: database.url: unsupported database \"" + scheme + "\": leasecron runs on"
                + " PostgreSQL (jdbc:postgresql:), MySQL (jdbc:mysql:), MariaDB (jdbc:mariadb:) or SQLite (jdbc:sqlite:);"
                + " on ClickHouse (jdbc:clickhouse:) only jobs of scope: replica"), errors(file(url, "replica")));
    }

    @Test
    void clickHouseRunsAFileOfReplicaScopedJobs() throws ConfigException {
        JobsConfig config = LOADER.parse("jobs.yaml", file("jdbc:clickhouse://user:pw@db:8123/default", "replica"));
        assertEquals(2, config.jobs().size());
    }

    @Test
    void clickHouseWithAClusterWideJobIsAnErrorNamingTheJob() {
        String expected = "jobs.yaml:2:8: database.url: ClickHouse cannot carry leases, which cluster-wide jobs run"
                + " under: job \"once\" (line 8) is cluster-wide (scope: cluster is the default); give every job"
                + " scope: replica, or use PostgreSQL, MySQL/MariaDB or SQLite";
        assertEquals(List.of(expected), errors(file("jdbc:clickhouse://db:8123/default", "")));
        assertEquals(List.of(expected), errors(file("jdbc:ch://db:8123/default", "cluster")));
    }

    @Test
    void aDisabledClusterWideJobDoesNotNeedLeases() throws ConfigException {
        String yaml = file("jdbc:clickhouse://db:8123/default", "") + "    enabled: false\n";
        assertEquals(2, LOADER.parse("jobs.yaml", yaml).jobs().size());
    }

    @Test
    void theEmbeddedDefaultIsNotJudged() throws ConfigException {
        LOADER.parse("jobs.yaml", "jobs: [{name: a, schedule: '@daily', type: shell}]\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:postgresql://db/reports", "jdbc:mysql://db/reports", "jdbc:mariadb://db/reports",
        "jdbc:sqlite:reports.db", "jdbc:clickhouse://ch:8123/default", "jdbc:ch://ch:8123/default"})
    void anExtraDatabaseMayBeAnyTheDaemonOpens(String url) throws ConfigException {
        JobsConfig config = LOADER.parse("jobs.yaml", """
                database:
                  url: jdbc:postgresql://db/leasecron
                  instances:
                    analytics: {url: "%s"}
                jobs: [{name: a, schedule: '@daily', type: shell}]
                """.formatted(url));
        assertEquals(url, config.database().instances().get("analytics").url());
    }

    @Test
    void anyOtherExtraDatabaseIsAnErrorAtItsUrl() {
        List<String> found = errors("""
                database:
                  url: jdbc:postgresql://db/leasecron
                  instances:
                    reports:
                      url: jdbc:sqlite:reports.db
                    legacy:
                      url: "jdbc:oracle:thin:@db:1521/x"
                      username: scott
                jobs: [{name: a, schedule: '@daily', type: shell}]
                """);
        assertEquals(List.of("jobs.yaml:7:12: database.instances.legacy.url: unsupported database \"oracle\": an extra"
                + " database is PostgreSQL (jdbc:postgresql:), MySQL (jdbc:mysql:), MariaDB (jdbc:mariadb:), SQLite"
                + " (jdbc:sqlite:) or ClickHouse (jdbc:clickhouse:, with its driver on the class path)"), found);
    }
}
