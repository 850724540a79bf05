package dev.leasecron.faults.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A throwaway PostgreSQL cluster: initdb into its own folder (or a base backup of another, for a
 * streaming standby), pg_ctl to start, stop and promote it, and SIGKILL of all its processes for a
 * crash.
 */
final class PostgresServer extends DatabaseServer {
    private final Path dir;
    private final Path bin;
    /** {@code -c name=value} settings of the server's command line, beside the port. */
    private final List<String> settings;
    private boolean crashed;

    PostgresServer(Path root, int port) throws IOException {
        this(root, port, List.of());
    }

    PostgresServer(Path root, int port, List<String> settings) throws IOException {
        super(port);
        this.dir = root.resolve("pg-" + port);
        this.bin = findBin();
        this.settings = List.copyOf(settings);
    }

    @Override
    String kind() {
        return "postgres";
    }

    @Override
    void start() throws IOException, InterruptedException {
        crashed = false;
        Servers.deleteTree(dir);
        Files.createDirectories(dir);
        Commands.own("postgres", dir);
        Commands.run("postgres", log(), bin.resolve("initdb").toString(), "-D", data(), "-U", "postgres", "--auth=trust");
        pgCtl("start");
    }

    /**
     * Creates this server as a streaming standby of {@code primary} (a base backup, with the standby's
     * signal file and the primary's address written by {@code -R}) and starts it. It streams under the
     * name {@code cluster_name}, which {@code synchronous_standby_names} of the primary may list.
     */
    void startStandbyOf(PostgresServer primary) throws IOException, InterruptedException {
        crashed = false;
        Servers.deleteTree(dir);
        Files.createDirectories(dir);
        Commands.own("postgres", dir);
        Commands.run("postgres", log(), bin.resolve("pg_basebackup").toString(), "-h", "127.0.0.1", "-p",
                Integer.toString(primary.port()), "-U", "postgres", "-D", data(), "-R", "-X", "stream", "-c", "fast");
        pgCtl("start");
    }

    @Override
    void restart() throws IOException, InterruptedException {
        pgCtl("stop");
        pgCtl("start");
    }

    /** SIGKILL to the postmaster and every process it started, at once: the host or the pod dying under it. */
    void crash() throws IOException, InterruptedException {
        long postmaster = Long.parseLong(Files.readAllLines(dir.resolve("data/postmaster.pid")).getFirst().trim());
        List<ProcessHandle> all = new ArrayList<>();
        ProcessHandle.of(postmaster).ifPresent(p -> {
            all.add(p);
            all.addAll(p.descendants().toList());
        });
        List<String> kill = new ArrayList<>(List.of("kill", "-KILL"));
        all.forEach(p -> kill.add(Long.toString(p.pid())));
        new ProcessBuilder(kill).inheritIO().start().waitFor();
        for (ProcessHandle p : all) {
            p.onExit().join();
        }
        crashed = true;
    }

    /** {@code pg_ctl promote}: a standby becomes a primary, the way an operator fails over. */
    void promote() throws IOException, InterruptedException {
        Commands.run("postgres", log(), bin.resolve("pg_ctl").toString(), "-D", data(), "-w", "promote");
    }

    /**
     * Stops this standby's WAL receiver and keeps it stopped (an empty {@code primary_conninfo}),
     * returning once it has ended: whatever the primary commits from now on never reaches this server,
     * as with asynchronous replication lagging behind.
     */
    void stopWalReceiver() throws SQLException, InterruptedException {
        try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
            st.execute("ALTER SYSTEM SET primary_conninfo = ''");
            st.execute("SELECT pg_reload_conf()");
            for (int i = 0; i < 200; i++) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM pg_stat_wal_receiver")) {
                    rs.next();
                    if (rs.getInt(1) == 0) {
                        return;
                    }
                }
                Thread.sleep(10);
            }
        }
        throw new SQLException("the WAL receiver of the server on port " + port + " did not stop within 2 s");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (!crashed && Files.exists(dir.resolve("data/postmaster.pid"))) {
            pgCtl("stop");
        }
        Servers.deleteTree(dir);
    }

    private void pgCtl(String action) throws IOException, InterruptedException {
        if (action.equals("start")) {
            // TCP only: a test's folder can be deeper than a Unix socket's path may be long (107 bytes).
            StringBuilder options = new StringBuilder("-p " + port + " -c unix_socket_directories=''"
                    + " -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off");
            settings.forEach(s -> options.append(" -c ").append(s));
            Commands.run("postgres", log(), bin.resolve("pg_ctl").toString(), "-D", data(), "-l",
                    dir.resolve("server.log").toString(), "-o", options.toString(), "-w", "start");
        } else {
            Commands.run("postgres", log(), bin.resolve("pg_ctl").toString(), "-D", data(), "-m", "fast", "-w", "stop");
        }
    }

    @Override
    String jdbcUrl(int port, String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    @Override
    String user() {
        return "postgres";
    }

    @Override
    String password() {
        return "";
    }

    @Override
    void recreateDatabase(String name) throws SQLException {
        try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            st.execute("CREATE DATABASE " + name);
        }
    }

    @Override
    void dropDatabase(String name) throws SQLException {
        try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }

    @Override
    String nowMillisSql() {
        return "CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) AS BIGINT)";
    }

    private String data() {
        return dir.resolve("data").toString();
    }

    private Path log() {
        return dir.resolveSibling("pg-" + port + ".tools.log");
    }

    static Path findBin() throws IOException {
        try (var versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Path::compareTo)
                    .orElseThrow(() -> new IOException("no PostgreSQL under /usr/lib/postgresql: apt-get install postgresql"));
        }
    }
}
