package dev.leasecron.faults.harness;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

/**
 * A database server the harness owns: its own data folder and port, started, restarted and stopped
 * at will, never a server anyone else uses.
 */
abstract sealed class DatabaseServer implements AutoCloseable permits PostgresServer, ReplicatedPostgres, MariaDbServer {
    protected final int port;

    DatabaseServer(int port) {
        this.port = port;
    }

    /** {@code postgres} or {@code mariadb}. */
    abstract String kind();

    /** Creates the data folder and starts the server; returns once it answers. */
    abstract void start() throws IOException, InterruptedException;

    /** Stops the server the way an operator restarting it would, then starts it again. */
    abstract void restart() throws IOException, InterruptedException;

    /** Stops the server and deletes its data folder. */
    @Override
    public abstract void close() throws IOException, InterruptedException;

    /** The JDBC URL of {@code database} through {@code port} (the server's, or a proxy's in front of it). */
    abstract String jdbcUrl(int port, String database);

    abstract String user();

    abstract String password();

    int port() {
        return port;
    }

    /** The ports the replicas reach, one proxy in front of each: the server's own, or each node's of a pair. */
    List<Integer> backendPorts() {
        return List.of(port);
    }

    /** The JDBC URL the replicas use, through the proxies listening on {@code ports} (one per backend port). */
    String replicaUrl(List<Integer> ports, String database) {
        return jdbcUrl(ports.getFirst(), database);
    }

    /** A connection straight to the server, bypassing any proxy: the harness's own reads. */
    Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(port, database), user(), password());
    }

    /** Creates an empty database named {@code name}, dropping one left by an earlier run. */
    abstract void recreateDatabase(String name) throws SQLException;

    abstract void dropDatabase(String name) throws SQLException;

    /** The database clock in UTC ms, as the lease statements read it. */
    abstract String nowMillisSql();
}
