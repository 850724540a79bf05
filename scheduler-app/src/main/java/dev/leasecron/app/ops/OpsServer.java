package dev.leasecron.app.ops;

import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
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
 *   <li>{@code GET /metrics}: the registry in the Prometheus text format;
 *   <li>the routes of the {@linkplain #start(Optional, int, HealthCheck, HealthCheck, PrometheusMeterRegistry,
 *       Consumer) pages given} (the daemon's dashboard and JSON API).
 * </ul>
 *
 * Any other path is 404. Any method but GET, HEAD and POST is 405, and so is a POST no route takes:
 * only the routes given may change state, each by POST (the admin API). A request body may hold at most
 * {@value #MAX_BODY_BYTES} bytes; a handler reading a longer one gets 413. Each request runs on a
 * virtual thread, so a slow check or page holds up only its own request.
 * {@link #close()} stops the server.
 */
public final class OpsServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final Set<HandlerType> SERVED = Set.of(HandlerType.GET, HandlerType.HEAD, HandlerType.POST);
    /** The largest request body read: the admin API's JSON bodies are a few dozen bytes. */
    public static final int MAX_BODY_BYTES = 4096;

    private final Javalin server;
    private final int port;

    private OpsServer(Javalin server, int port) {
        this.server = server;
        this.port = port;
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
        return start(address, port, liveness, readiness, metrics, routes -> {});
    }

    /**
     * Starts serving as {@link #start(Optional, int, HealthCheck, HealthCheck, PrometheusMeterRegistry)}
     * does, with the GET routes {@code pages} adds beside the probes and metrics.
     *
     * @throws OpsBindException the address and port cannot be bound: in use, not this host's, unknown
     */
    public static OpsServer start(Optional<String> address, int port, HealthCheck liveness, HealthCheck readiness,
            PrometheusMeterRegistry metrics, Consumer<RoutesConfig> pages) {
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
        Javalin server = Javalin.create(config -> {
            configure(config, address, port);
            read(config.routes, "/healthz", ctx -> probe(ctx, liveness));
            read(config.routes, "/readyz", ctx -> probe(ctx, readiness));
            read(config.routes, "/metrics", ctx -> respond(ctx, 200, PROMETHEUS_TEXT, metrics.scrape()));
            pages.accept(config.routes);
        });
        try {
            server.start();
        } catch (RuntimeException e) {
            server.stop();
            throw new OpsBindException("cannot serve " + where + ": " + reason(e), ioCause(e));
        }
        return new OpsServer(server, server.port());
    }

    /**
     * Serves {@code path} to GET and HEAD with {@code handler}: Javalin routes a HEAD only to a HEAD
     * handler, and Jetty sends a HEAD answer's status and headers without its body.
     */
    public static void read(RoutesConfig routes, String path, Handler handler) {
        routes.get(path, handler);
        routes.head(path, handler);
    }

    private static void configure(JavalinConfig config, Optional<String> address, int port) {
        config.startup.showJavalinBanner = false;
        config.startup.showOldJavalinVersionWarning = false;
        config.concurrency.useVirtualThreads = true;
        config.http.generateEtags = false;
        // Javalin stops reading a body at this size and answers 413, chunked bodies included.
        config.http.maxRequestSize = MAX_BODY_BYTES;
        config.jetty.port = port;
        address.ifPresent(host -> config.jetty.host = host);
        config.jetty.modifyServer(jetty -> jetty.setStopTimeout(0));
        config.jetty.modifyHttpConfiguration(http -> {
            http.setSendServerVersion(false);
            // Jetty's per-connection cache of header fields matches values regardless of case by
            // default, and hands back the cached field: a token differing from one sent before on the
            // connection only in case would read as that one (jetty/jetty.project#7168).
            http.setHeaderCacheCaseSensitive(true);
        });
        // GET and HEAD read; POST reaches only the routes that take it (the admin API's), and any
        // other method, or a POST no route takes, is 405: a probe or page never changes state.
        config.routes.before(ctx -> {
            if (!SERVED.contains(ctx.method())) {
                readsOnly(ctx);
                ctx.skipRemainingHandlers();
            }
        });
        config.routes.error(404, ctx -> {
            if (ctx.attribute(ANSWERED) != null) {
                return;
            }
            if (ctx.method() == HandlerType.POST) {
                readsOnly(ctx);
            } else {
                respond(ctx, 404, TEXT, "not found\n");
            }
        });
        // Javalin's own refusals (a body over the bound: 413) keep their status, not the 500 below.
        config.routes.exception(HttpResponseException.class,
                (e, ctx) -> respond(ctx, e.getStatus(), TEXT, e.getMessage() + "\n"));
        config.routes.exception(Exception.class, (e, ctx) -> {
            LOG.warn("{} {} failed", ctx.method(), ctx.path(), e);
            respond(ctx, 500, TEXT, "internal error\n");
        });
    }

    /**
     * Set on a request whose handler wrote a 404 of its own (an unknown job's page), which the
     * server's plain {@code not found} then leaves as it is.
     */
    public static final String ANSWERED = "leasecron.answered";

    /** The port the server listens on: the one asked for, or the one picked for 0. */
    public int port() {
        return port;
    }

    /** Stops listening and ends the requests in progress. */
    @Override
    public void close() {
        server.stop();
    }

    private static void probe(Context ctx, HealthCheck check) {
        Health health;
        try {
            health = check.check();
        } catch (Exception e) {
            health = Health.down(e.toString());
        }
        if (health.passed()) {
            respond(ctx, 200, TEXT, "ok\n");
        } else {
            LOG.debug("{} is down: {}", ctx.path(), health.reason());
            respond(ctx, 503, TEXT, "down: " + health.reason() + "\n");
        }
    }

    private static void readsOnly(Context ctx) {
        ctx.header("Allow", "GET, HEAD");
        respond(ctx, 405, TEXT, "method not allowed\n");
    }

    /**
     * Serves {@code path} to POST with {@code handler}. A request body is read through the context
     * ({@code ctx.bodyAsBytes()}), which stops at {@link #MAX_BODY_BYTES}.
     */
    public static void write(RoutesConfig routes, String path, Handler handler) {
        routes.post(path, handler);
    }

    private static void respond(Context ctx, int status, String contentType, String body) {
        ctx.status(status).contentType(contentType).header("Cache-Control", "no-store")
                .header("X-Content-Type-Options", "nosniff").result(body);
    }

    /** What the bind failure says: the innermost message, e.g. "Address already in use". */
    private static String reason(Throwable e) {
        Throwable innermost = e;
        while (innermost.getCause() != null && innermost.getCause() != innermost) {
            innermost = innermost.getCause();
        }
        return innermost.getMessage() != null ? innermost.getMessage() : innermost.toString();
    }

    private static IOException ioCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException io) {
                return io;
            }
        }
        return new IOException(reason(e), e);
    }
}
