package dev.leasecron.faults.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** A throwaway PostgreSQL cluster: initdb into its own folder, pg_ctl to start and stop it. */
final class PostgresServer extends DatabaseServer {
    private final Path dir;
    private final Path bin;

    PostgresServer(Path root, int port) throws IOException {
        super(port);
        this.dir = root.resolve("pg-" + port);
        this.bin = findBin();
    }

    @Override
    String kind() {
        return "postgres";
    }

    @Override
    void start() throws IOException, InterruptedException {
        Servers.deleteTree(dir);
        Files.createDirectories(dir);
        Commands.own("postgres", dir);
        Commands.run("postgres", log(), bin.resolve("initdb").toString(), "-D", data(), "-U", "postgres", "--auth=trust");
        pgCtl("start");
    }

    @Override
    void restart() throws IOException, InterruptedException {
        pgCtl("stop");
        pgCtl("start");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (Files.exists(dir.resolve("data/postmaster.pid"))) {
            pgCtl("stop");
        }
        Servers.deleteTree(dir);
    }

    private void pgCtl(String action) throws IOException, InterruptedException {
        if (action.equals("start")) {
            Commands.run("postgres", log(), bin.resolve("pg_ctl").toString(), "-D", data(), "-l", dir.resolve("server.log").toString(),
                    "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c max_connections=200"
                            + " -c fsync=off", "-w", "start");
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

    private static Path findBin() throws IOException {
        try (var versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Path::compareTo)
                    .orElseThrow(() -> new IOException("no PostgreSQL under /usr/lib/postgresql: apt-get install postgresql"));
        }
    }
}
