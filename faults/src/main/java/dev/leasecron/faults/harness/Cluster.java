package dev.leasecron.faults.harness;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * What the fault player acts on: the replicas, the database server, the proxies in front of it (one
 * per node of a replicated server; none where the replicas reach it directly), and a view of the lease
 * table (read straight from the server, past the proxies) to find holders.
 */
record Cluster(List<Replica> replicas, DatabaseServer server, List<TcpProxy> proxies, String database) {

    Cluster {
        replicas = List.copyOf(replicas);
        proxies = List.copyOf(proxies);
    }

    /** Every proxy holds every byte until {@link #resumeDatabase()}: a stalled database. */
    void stallDatabase() {
        proxies.forEach(TcpProxy::pause);
    }

    void resumeDatabase() {
        proxies.forEach(TcpProxy::resume);
    }

    /** Every proxy cuts every connection open now: a network cut. */
    void dropConnections() {
        proxies.forEach(TcpProxy::dropAll);
    }

    Replica replica(int index) {
        return replicas.get(index - 1);
    }

    long dbNowMs() throws SQLException {
        try (Connection c = server.connect(database); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT " + server.nowMillisSql())) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Waits until the lease table has a row for each of {@code jobs} jobs. */
    boolean awaitEveryJobClaimed(int jobs, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        while (System.nanoTime() < deadline) {
            try (Connection c = server.connect(database); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM gst_leases WHERE slot_ms <> 0")) {
                if (rs.next() && rs.getInt(1) >= jobs) {
                    return true;
                }
            } catch (SQLException tableNotThereYet) {
                // the replicas create it as they start
            }
            Thread.sleep(100);
        }
        return false;
    }

    /**
     * A replica holding a round's lease now, picked with {@code random} among the holders; empty when
     * none does, or the database does not answer.
     */
    Optional<Replica> holder(Random random) {
        List<Replica> holders = new ArrayList<>();
        try (Connection c = server.connect(database); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT instance FROM gst_leases WHERE unfinished_slot_ms <> 0"
                        + " AND unfinished_slot_ms = slot_ms AND expires_at_ms > " + server.nowMillisSql()
                        + " ORDER BY name")) {
            while (rs.next()) {
                String instance = rs.getString(1);
                replicas.stream().filter(r -> (instance.equals(r.name()) || instance.startsWith(r.name() + "-")) && r.alive()).findFirst()
                        .ifPresent(holders::add);
            }
        } catch (SQLException e) {
            return Optional.empty();
        }
        return holders.isEmpty() ? Optional.empty() : Optional.of(holders.get(random.nextInt(holders.size())));
    }

    /** Ends every replica process still running, at once. */
    void killAll() throws IOException, InterruptedException {
        resumeDatabase();
        for (Replica r : replicas) {
            if (r.alive()) {
                r.kill9();
            }
        }
    }

    /** {@link #killAll()} for a shutdown hook, which has no one to report a failure to. */
    void killAllQuietly() {
        replicas.forEach(r -> r.destroyForcibly());
    }

    /**
     * Every replica running and not stopped: SIGCONT to the stopped, a new process for the dead.
     *
     * @return the replicas started again
     */
    List<Replica> heal() throws IOException, InterruptedException {
        resumeDatabase();
        List<Replica> restarted = new ArrayList<>();
        for (Replica r : replicas) {
            r.sigcont();
            if (!r.alive()) {
                r.start(null);
                restarted.add(r);
            }
        }
        return restarted;
    }
}
