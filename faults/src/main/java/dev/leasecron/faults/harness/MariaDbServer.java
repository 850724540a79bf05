package dev.leasecron.faults.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/** A throwaway MariaDB server: mariadb-install-db into its own folder, mariadbd as a child process. */
final class MariaDbServer extends DatabaseServer {
    private static final String USER = "leasecron";
    private final Path dir;
    private Process server;

    MariaDbServer(Path root, int port) {
        super(port);
        this.dir = root.resolve("mariadb-" + port);
    }

    @Override
    String kind() {
        return "mariadb";
    }

    @Override
    void start() throws IOException, InterruptedException {
        Servers.deleteTree(dir);
        Files.createDirectories(dir.resolve("data"));
        Commands.own("mysql", dir);
        Commands.run(null, log(), "mariadb-install-db", "--user=mysql", "--datadir=" + dir.resolve("data"),
                "--auth-root-authentication-method=normal");
        launch();
        Commands.run(null, log(), "mariadb", "--socket=" + dir.resolve("sock"), "-uroot", "-e",
                "CREATE USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + USER + "';"
                        + " GRANT ALL ON *.* TO '" + USER + "'@'127.0.0.1';");
    }

    @Override
    void restart() throws IOException, InterruptedException {
        shutdown();
        launch();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        shutdown();
        Servers.deleteTree(dir);
    }

    private void launch() throws IOException, InterruptedException {
        server = Commands.start(null, dir.resolve("server.log"), "mariadbd", "--user=mysql", "--datadir=" + dir.resolve("data"),
                "--socket=" + dir.resolve("sock"), "--pid-file=" + dir.resolve("pid"), "--bind-address=127.0.0.1",
                "--port=" + port, "--max-connections=200", "--character-set-server=utf8mb4",
                "--collation-server=utf8mb4_bin", "--innodb-flush-log-at-trx-commit=0", "--skip-log-bin");
        for (int i = 0; i < 200; i++) {
            try {
                Commands.run(null, log(), "mariadb-admin", "--socket=" + dir.resolve("sock"), "-uroot", "ping");
                return;
            } catch (IOException notYet) {
                if (!server.isAlive()) {
                    throw new IOException("mariadbd exited with " + server.exitValue() + "; see " + dir.resolve("server.log"));
                }
                Thread.sleep(100);
            }
        }
        throw new IOException("mariadbd did not answer within 20 s; see " + dir.resolve("server.log"));
    }

    private void shutdown() throws IOException, InterruptedException {
        if (server == null || !server.isAlive()) {
            return;
        }
        server.destroy(); // SIGTERM: mariadbd shuts down cleanly, as mariadb-admin shutdown would
        if (!server.waitFor(60, TimeUnit.SECONDS)) {
            server.destroyForcibly().waitFor();
        }
    }

    @Override
    String jdbcUrl(int port, String database) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + database + "?sslMode=disable";
    }

    @Override
    String user() {
        return USER;
    }

    @Override
    String password() {
        return USER;
    }

    @Override
    void recreateDatabase(String name) throws SQLException {
        try (Connection c = connect("mysql"); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + name);
            st.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        }
    }

    @Override
    void dropDatabase(String name) throws SQLException {
        try (Connection c = connect("mysql"); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + name);
        }
    }

    @Override
    String nowMillisSql() {
        return "(UNIX_TIMESTAMP() * 1000 + MICROSECOND(NOW(3)) DIV 1000)";
    }

    private Path log() {
        return dir.resolveSibling("mariadb-" + port + ".tools.log");
    }
}
