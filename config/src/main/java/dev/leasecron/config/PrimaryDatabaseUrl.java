package dev.leasecron.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Judges the primary database by its JDBC URL's scheme, the one thing about it a check that opens no
 * connection can know. Leases need PostgreSQL, MySQL/MariaDB or SQLite; a ClickHouse primary cannot
 * carry them, so a file on it may hold only jobs of {@code scope: replica}, which run without a
 * lease. Any other database is refused outright: leasecron has neither its driver nor its SQL.
 *
 * <p>An extra database ({@code database.instances}) holds no lease, only the transactions jobs open
 * on it, so ClickHouse is as good as the others there; any other kind is refused as for the primary,
 * at validation, rather than at start by a pool that finds no driver for it.
 */
final class PrimaryDatabaseUrl {
    /** The JDBC sub-protocols leasecron runs on, as written after {@code jdbc:}. */
    static final List<String> SUPPORTED = List.of("postgresql", "mysql", "mariadb", "sqlite");
    /** ClickHouse's JDBC sub-protocols: the driver accepts both. */
    private static final List<String> CLICKHOUSE = List.of("clickhouse", "ch");
    private static final String WHAT_RUNS = "leasecron runs on PostgreSQL (jdbc:postgresql:), MySQL (jdbc:mysql:),"
            + " MariaDB (jdbc:mariadb:) or SQLite (jdbc:sqlite:); on ClickHouse (jdbc:clickhouse:) only jobs of"
            + " scope: replica";

    private static final String WHAT_EXTRA_RUNS = "an extra database is PostgreSQL (jdbc:postgresql:), MySQL"
            + " (jdbc:mysql:), MariaDB (jdbc:mariadb:), SQLite (jdbc:sqlite:) or ClickHouse (jdbc:clickhouse:, with its"
            + " driver on the class path)";

    private PrimaryDatabaseUrl() {}

    /**
     * Records an error at an extra database's {@code url} when it names a database leasecron cannot open.
     *
     * @param at where the url is written
     * @param path the key's path, {@code database.instances.NAME.url}
     * @return whether the url is accepted
     */
    static boolean checkExtra(Position at, String path, String url, ErrorCollector errors) {
        String scheme = subProtocol(url);
        if (SUPPORTED.contains(scheme) || CLICKHOUSE.contains(scheme)) {
            return true;
        }
        errors.add(at, path, "unsupported database \"" + scheme + "\": " + WHAT_EXTRA_RUNS);
        return false;
    }

    /**
     * Records an error at {@code database.url} when the URL names a database leasecron cannot run on,
     * or ClickHouse while an enabled job is cluster-wide.
     *
     * @param database the {@code database:} section as written
     * @param url its {@code url}, interpolated
     * @param jobs the jobs bound, in file order
     * @param jobNodes the {@code jobs:} list as written, for the jobs' lines; empty when not a list
     */
    static void check(YamlNode database, String url, List<JobSpec> jobs, List<YamlNode> jobNodes, ErrorCollector errors) {
        if (!(database instanceof YamlNode.Mapping mapping)) {
            return;
        }
        Optional<YamlNode> urlNode = mapping.entry("url").map(YamlNode.Entry::value);
        if (urlNode.isEmpty()) {
            return;
        }
        Position at = urlNode.get().position();
        String scheme = subProtocol(url);
        if (SUPPORTED.contains(scheme)) {
            return;
        }
        if (!CLICKHOUSE.contains(scheme)) {
            errors.add(at, "database.url", "unsupported database \"" + scheme + "\": " + WHAT_RUNS);
            return;
        }
        List<String> clusterJobs = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            JobSpec job = jobs.get(i);
            if (job.enabled() && job.scope() == Scope.CLUSTER) {
                clusterJobs.add("\"" + job.name() + "\"" + (i < jobNodes.size() ? " (line " + jobNodes.get(i).position().line() + ")" : ""));
            }
        }
        if (!clusterJobs.isEmpty()) {
            errors.add(at, "database.url", "ClickHouse cannot carry leases, which cluster-wide jobs run under: "
                    + (clusterJobs.size() == 1 ? "job " + clusterJobs.getFirst() + " is" : "jobs " + String.join(", ", clusterJobs) + " are")
                    + " cluster-wide (scope: cluster is the default); give every job scope: replica, or use"
                    + " PostgreSQL, MySQL/MariaDB or SQLite");
        }
    }

    /** What follows {@code jdbc:} up to the next colon, as written: the drivers match it case by case. */
    static String subProtocol(String url) {
        String rest = url.substring(Math.min(url.length(), "jdbc:".length()));
        int colon = rest.indexOf(':');
        return colon < 0 ? rest : rest.substring(0, colon);
    }
}
