/**
 * What an orchestrator and a monitoring system see of a replica: an HTTP server (Javalin on Jetty 12,
 * a virtual thread per request) with {@code /healthz} (liveness), {@code /readyz} (readiness) and
 * {@code /metrics} (Prometheus), which also carries the read-only dashboard of
 * {@code dev.leasecron.app.web}; and the scheduler's meters.
 */
package dev.leasecron.app.ops;
