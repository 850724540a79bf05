/**
 * What an orchestrator and a monitoring system see of a replica: an HTTP server with
 * {@code /healthz} (liveness), {@code /readyz} (readiness) and {@code /metrics} (Prometheus), and
 * the scheduler's meters.
 */
package dev.leasecron.app.ops;
