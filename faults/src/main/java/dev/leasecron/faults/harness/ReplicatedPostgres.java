package dev.leasecron.faults.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A PostgreSQL primary with one streaming standby, as an operator (CloudNativePG, Patroni) runs them,
 * and the failover such an operator does: the primary's host dies, the standby is promoted. The
 * replicas reach the pair through a multi-host URL with {@code targetServerType=primary}, so each new
 * connection finds whichever node is the primary now.
 *
 * <p>With {@link Replication#SYNC} the primary answers no commit the standby has not flushed
 * ({@code synchronous_standby_names} naming it, {@code synchronous_commit = on}). With
 * {@link Replication#ASYNC} it answers without waiting. A failover may stop the standby's WAL
 * receiver a while before the kill: asynchronously, what the primary commits meanwhile is what a
 * lagging standby would not have, and the promoted primary forgets it; synchronously, the commits
 * of that while wait for the standby, and those whose wait the statement's timeout cancels are
 * committed on the primary alone.
 *
 * <p>After a failover the promoted node is the primary and has no standby of its own: one failover per run.
 */
final class ReplicatedPostgres extends DatabaseServer {
    enum Replication {
        SYNC, ASYNC;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The name the standby streams under, which {@code synchronous_standby_names} lists. */
    private static final String STANDBY_NAME = "standby";

    private final Replication replication;
    private final PostgresServer first;
    private final PostgresServer second;
    private PostgresServer primary;
    private PostgresServer standby;

    /** The first node listens on {@code port}, the standby on {@code standbyPort}. */
    ReplicatedPostgres(Path root, int port, int standbyPort, Replication replication) throws IOException {
        super(port);
        this.replication = replication;
        List<String> primarySettings = replication == Replication.SYNC
                ? List.of("synchronous_standby_names=" + STANDBY_NAME, "synchronous_commit=on")
                : List.<String>of();
        this.first = new PostgresServer(root, port, primarySettings);
        this.second = new PostgresServer(root, standbyPort, List.of("cluster_name=" + STANDBY_NAME));
    }

    @Override
    String kind() {
        return "postgres-" + replication.label();
    }

    Replication replication() {
        return replication;
    }

    @Override
    void start() throws IOException, InterruptedException {
        first.start();
        second.startStandbyOf(first);
        primary = first;
        standby = second;
    }

    /** Whether a standby is left to fail over to. */
    boolean hasStandby() {
        return standby != null;
    }

    @Override
    List<Integer> backendPorts() {
        return List.of(first.port(), second.port());
    }

    /** Every node in the URL, the driver choosing the one that takes writes. */
    @Override
    String replicaUrl(List<Integer> ports, String database) {
        return "jdbc:postgresql://" + ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","))
                + "/" + database + "?targetServerType=primary";
    }

    /**
     * Kills the primary's processes, and promotes the standby {@code promoteAfterMs} later; with a
     * {@code holdBackMs} above 0, the standby's WAL receiver is stopped that long before the kill.
     */
    void failover(long holdBackMs, long promoteAfterMs, PrintStream journal)
            throws IOException, InterruptedException, SQLException {
        if (standby == null) {
            throw new IllegalStateException("no standby left to fail over to");
        }
        if (holdBackMs > 0) {
            standby.stopWalReceiver();
            journal.println(System.currentTimeMillis() + "   standby on " + standby.port() + " stopped receiving WAL");
            Thread.sleep(holdBackMs);
        }
        primary.crash();
        journal.println(System.currentTimeMillis() + "   primary on " + primary.port() + " killed");
        Thread.sleep(promoteAfterMs);
        standby.promote();
        journal.println(System.currentTimeMillis() + "   standby on " + standby.port() + " promoted");
        primary = standby;
        standby = null;
    }

    /** Kills the primary's processes (the first half of {@link #failover}, for a test that times each step). */
    void crashPrimary() throws IOException, InterruptedException {
        primary.crash();
    }

    /** Stops the standby's WAL receiver (see {@link PostgresServer#stopWalReceiver()}). */
    void holdBackStandby() throws SQLException, InterruptedException {
        standby.stopWalReceiver();
    }

    /** Promotes the standby, which is the primary from then on. */
    void promoteStandby() throws IOException, InterruptedException {
        standby.promote();
        primary = standby;
        standby = null;
    }

    /** A connection to the standby, for reading what it has received. */
    Connection connectStandby(String database) throws SQLException {
        return standby.connect(database);
    }

    @Override
    void restart() throws IOException, InterruptedException {
        primary.restart();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            second.close();
        } finally {
            first.close();
        }
    }

    @Override
    Connection connect(String database) throws SQLException {
        return primary.connect(database);
    }

    @Override
    String jdbcUrl(int port, String database) {
        return first.jdbcUrl(port, database);
    }

    @Override
    String user() {
        return first.user();
    }

    @Override
    String password() {
        return first.password();
    }

    @Override
    void recreateDatabase(String name) throws SQLException {
        primary.recreateDatabase(name);
    }

    @Override
    void dropDatabase(String name) throws SQLException {
        primary.dropDatabase(name);
    }

    @Override
    String nowMillisSql() {
        return first.nowMillisSql();
    }
}
