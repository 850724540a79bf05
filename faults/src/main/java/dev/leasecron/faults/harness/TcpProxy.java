package dev.leasecron.faults.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy between the replicas and the database, which the fault schedule pauses (bytes
 * stop flowing both ways, connections stay open: a stalled database or network) and drops (every
 * open connection is closed at once: a network cut). Each direction of each connection is a virtual
 * thread copying bytes.
 */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private boolean paused;

    private TcpProxy(ServerSocket server, int targetPort) {
        this.server = server;
        this.targetPort = targetPort;
    }

    /** A proxy to {@code targetPort} on {@code listenPort}; 0 picks a free one (see {@link #port()}). */
    static TcpProxy start(int listenPort, int targetPort) throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort));
        TcpProxy proxy = new TcpProxy(server, targetPort);
        Thread.ofVirtual().name("proxy-accept").start(proxy::acceptLoop);
        return proxy;
    }

    int port() {
        return server.getLocalPort();
    }

    /** Stops every byte until {@link #resume()}; new connections are accepted and wait too. */
    synchronized void pause() {
        paused = true;
    }

    synchronized void resume() {
        paused = false;
        notifyAll();
    }

    /** Closes every connection open now, both sides, as a network cut would. */
    void dropAll() {
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    @Override
    public void close() {
        resume();
        closeQuietly(server);
        dropAll();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Thread.ofVirtual().name("proxy-connect").start(() -> connect(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void connect(Socket client) {
        try {
            awaitFlowing();
            Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
            open.add(client);
            open.add(upstream);
            Thread.ofVirtual().name("proxy-up").start(() -> pump(client, upstream));
            Thread.ofVirtual().name("proxy-down").start(() -> pump(upstream, client));
        } catch (IOException | InterruptedException e) {
            closeQuietly(client); // the database is down: the client sees the connection refused late
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                awaitFlowing();
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // One side closed or the connection was dropped: close both.
        } finally {
            open.remove(from);
            open.remove(to);
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private synchronized void awaitFlowing() throws InterruptedException {
        while (paused) {
            wait();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing is all that is asked; a socket already closed is fine
        }
    }
}
