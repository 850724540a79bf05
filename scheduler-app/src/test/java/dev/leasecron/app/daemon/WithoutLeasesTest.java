package dev.leasecron.app.daemon;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.config.JobsConfig;
import dev.leasecron.config.Scope;
import dev.leasecron.jobs.Job;
import dev.leasecron.jobs.JobContext;
import dev.leasecron.lease.LeaseTimings;
import java.lang.reflect.Proxy;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A primary database that cannot carry leases (ClickHouse, faked by its driver's metadata): a file of
 * replica-scoped jobs runs, one with a cluster-wide job fails at start with a message saying why.
 */
class WithoutLeasesTest {
    private static final String URL = "jdbc:clickhouse://reader:s3cret@clickhouse:8123/default";
    private static final Driver CLICKHOUSE = new FakeClickHouseDriver();
    private static final ConfigLoader LOADER = new ConfigLoader(Map.of("HOSTNAME", "replica-1"), JobTypeChecker.acceptAny());

    @BeforeAll
    static void registerDriver() throws SQLException {
        DriverManager.registerDriver(CLICKHOUSE);
    }

    @AfterAll
    static void deregisterDriver() throws SQLException {
        DriverManager.deregisterDriver(CLICKHOUSE);
    }

    /** Counts its rounds. */
    private static final class CountingJob implements Job {
        final AtomicInteger rounds = new AtomicInteger();

        @Override
        public String type() {
            return "counting";
        }

        @Override
        public void run(JobContext context) {
            rounds.incrementAndGet();
        }
    }

    private static JobsConfig config(int httpPort) throws Exception {
        return LOADER.parse("jobs.yaml", """
                database:
                  url: %s
                http:
                  port: %d
                shutdownGrace: 1s
                jobs:
                  - name: everywhere
                    schedule: "* * * * * *"
                    type: counting
                    scope: replica
                """.formatted(URL, httpPort));
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aFileOfReplicaScopedJobsRuns(@TempDir Path directory) throws Exception {
        CountingJob job = new CountingJob();
        JobsConfig config = config(freePort());
        Path file = Files.writeString(directory.resolve("jobs.yaml"), "jobs: []\n"); // watched for edits only
        Daemon daemon = new Daemon(config, file, LOADER, JobRegistry.of(job), LeaseTimings.DEFAULT);
        CompletableFuture<Void> running = CompletableFuture.runAsync(() -> {
            try {
                daemon.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds.get() >= 2 || running.isDone());
            assertFalse(running.isDone(), () -> "the daemon stopped: " + running.exceptionNow());
        } finally {
            daemon.stop();
        }
        running.get();
    }

    @Test
    void aClusterWideJobFailsTheStartSayingWhichAndWhy() throws Exception {
        JobsConfig replicaOnly = config(freePort());
        JobSpec everywhere = replicaOnly.jobs().getFirst();
        // The loader refuses it too (PrimaryDatabaseUrlTest); a driver answering another URL would not.
        JobsConfig withClusterJob = new JobsConfig(replicaOnly.database(), replicaOnly.instance(), replicaOnly.httpAddress(),
                replicaOnly.httpPort(), replicaOnly.adminToken(), replicaOnly.shutdownGrace(), java.util.List.of(everywhere, new JobSpec("once", everywhere.schedule(),
                        everywhere.type(), everywhere.catchUp(), everywhere.timeout(), true, Scope.CLUSTER, Map.of())));
        Daemon daemon = new Daemon(withClusterJob, Path.of("jobs.yaml"), null, JobRegistry.of(new CountingJob()),
                LeaseTimings.DEFAULT);

        StartRefusedException refused = assertThrows(StartRefusedException.class, daemon::run);

        assertEquals("leases need a PostgreSQL, MySQL/MariaDB or SQLite primary database, not ClickHouse; job once is"
                + " cluster-wide (scope: cluster is the default) and would run under leases: give every job scope:"
                + " replica to run it on every replica without one", refused.getMessage());
    }

    @Test
    void aUrlNoDriverTakesIsRefusedWithThePasswordMasked() throws Exception {
        JobsConfig config = config(freePort());
        JobsConfig noDriver = new JobsConfig(new dev.leasecron.config.DatabaseSpec(false,
                new dev.leasecron.config.DataSourceSpec("jdbc:nosuchdb://reader:s3cret@db/x", java.util.Optional.empty(),
                        dev.leasecron.config.Secret.none()), 2, Map.of()),
                config.instance(), config.httpAddress(), config.httpPort(), config.adminToken(), config.shutdownGrace(),
                config.jobs());
        Daemon daemon = new Daemon(noDriver, Path.of("jobs.yaml"), null, JobRegistry.of(new CountingJob()), LeaseTimings.DEFAULT);

        StartRefusedException refused = assertThrows(StartRefusedException.class, daemon::run);

        assertFalse(refused.getMessage().contains("s3cret"), refused.getMessage());
        assertTrue(refused.getMessage().startsWith("cannot open the database at jdbc:nosuchdb://reader:******@db/x: no JDBC"
                + " driver here takes the URL"), refused.getMessage());
    }

    /**
     * Takes {@code jdbc:clickhouse:} URLs and hands out connections whose metadata says ClickHouse and
     * that answer everything else with nothing, which is all a pool asks of them before a statement.
     */
    private static final class FakeClickHouseDriver implements Driver {
        @Override
        public Connection connect(String url, Properties info) {
            if (!acceptsURL(url)) {
                return null;
            }
            DatabaseMetaData meta = fake(DatabaseMetaData.class, Map.of("getDatabaseProductName", "ClickHouse"));
            return fake(Connection.class, Map.of("getMetaData", meta, "isValid", true));
        }

        private static <T> T fake(Class<T> type, Map<String, Object> answers) {
            return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
                if (answers.containsKey(method.getName())) {
                    return answers.get(method.getName());
                }
                Class<?> returns = method.getReturnType();
                if (returns == boolean.class) return false;
                if (returns == int.class) return 0;
                if (returns == long.class) return 0L;
                if (returns.isPrimitive() && returns != void.class) {
                    throw new UnsupportedOperationException(method.getName());
                }
                return null;
            }));
        }

        @Override
        public boolean acceptsURL(String url) {
            return url.startsWith("jdbc:clickhouse:");
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
            return new DriverPropertyInfo[0];
        }

        @Override
        public int getMajorVersion() {
            return 0;
        }

        @Override
        public int getMinorVersion() {
            return 1;
        }

        @Override
        public boolean jdbcCompliant() {
            return false;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }
    }
}
