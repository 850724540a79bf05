package dev.leasecron.app.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's operations endpoints, on all interfaces or the address given:
 *
 * <ul>
 *   <li>{@code GET /healthz}: 200 while the liveness check passes (the process runs its loop),
 *       else 503;
 *   <li>{@code GET /readyz}: 200 while the readiness check passes (for the daemon: the database
 *       answers and the lease table is ready), else 503 with the reason;
 *   <li>{@code GET /metrics}: the registry in the Prometheus text format.
 * </ul>
 *
 * Any other path is 404, any other method 405. Each request runs on a virtual thread, so a slow
 * check holds up only its own probe. {@link #close()} stops the server.
 */
public final class OpsServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;
    private final HealthCheck liveness;
    private final HealthCheck readiness;
    private final PrometheusMeterRegistry metrics;

    private OpsServer(HttpServer server, ExecutorService executor, HealthCheck liveness, HealthCheck readiness,
            PrometheusMeterRegistry metrics) {
        this.server = server;
        this.executor = executor;
        this.liveness = liveness;
        this.readiness = readiness;
        this.metrics = metrics;
    }

    /**
     * Starts serving on {@code port} of every interface; 0 picks a free port (see {@link #port()}).
     *
     * @throws OpsBindException the port cannot be bound, e.g. it is in use
     */
    public static OpsServer start(int port, HealthCheck liveness, HealthCheck readiness,
            PrometheusMeterRegistry metrics) {
        return start(Optional.empty(), port, liveness, readiness, metrics);
    }

    /**
     * Starts serving on {@code port} of {@code address} (an IP address or host name; empty for
     * every interface); 0 picks a free port (see {@link #port()}).
     *
     * @throws OpsBindException the address and port cannot be bound: in use, not this host's, unknown
     */
    public static OpsServer start(Optional<String> address, int port, HealthCheck liveness, HealthCheck readiness,
            PrometheusMeterRegistry metrics) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("http.port must be between 0 and 65535: " + port);
        }
        String where = address.map(host -> "http.address " + host + " port " + port).orElse("http.port " + port);
        InetSocketAddress socket = address.map(host -> new InetSocketAddress(host, port))
                .orElseGet(() -> new InetSocketAddress(port));
        if (socket.isUnresolved()) {
            throw new OpsBindException("cannot serve " + where + ": unknown host",
                    new UnknownHostException(socket.getHostString()));
        }
        HttpServer server;
        try {
            server = HttpServer.create(socket, 0);
        } catch (IOException e) {
            throw new OpsBindException("cannot serve " + where + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        OpsServer ops = new OpsServer(server, executor, liveness, readiness, metrics);
        server.createContext("/", ops::handle);
        server.start();
        return ops;
    }

    /** The port the server listens on: the one asked for, or the one picked for 0. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops listening and ends the requests in progress. */
    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                respond(exchange, 405, TEXT, "method not allowed\n");
                return;
            }
            switch (exchange.getRequestURI().getPath()) {
                case "/healthz" -> probe(exchange, liveness);
                case "/readyz" -> probe(exchange, readiness);
                case "/metrics" -> respond(exchange, 200, PROMETHEUS_TEXT, metrics.scrape());
                default -> respond(exchange, 404, TEXT, "not found\n");
            }
        }
    }

    private static void probe(HttpExchange exchange, HealthCheck check) throws IOException {
        Health health;
        try {
            health = check.check();
        } catch (Exception e) {
            health = Health.down(e.toString());
        }
        if (health.passed()) {
            respond(exchange, 200, TEXT, "ok\n");
        } else {
            LOG.debug("{} is down: {}", exchange.getRequestURI().getPath(), health.reason());
            respond(exchange, 503, TEXT, "down: " + health.reason() + "\n");
        }
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
