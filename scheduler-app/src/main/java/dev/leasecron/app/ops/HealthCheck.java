package dev.leasecron.app.ops;

/**
 * A check behind a probe endpoint, run on every request, on a virtual thread of its own. A check
 * that blocks (a database ping) bounds its own wait, well under the probe's timeout; a check that
 * throws counts as down, with the exception as its reason.
 */
@FunctionalInterface
public interface HealthCheck {

    /** A check that always passes: for liveness while the process serves requests at all. */
    HealthCheck ALWAYS_UP = Health::up;

    Health check() throws Exception;
}
