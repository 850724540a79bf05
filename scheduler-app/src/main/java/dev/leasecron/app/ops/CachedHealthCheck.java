package dev.leasecron.app.ops;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A check answered from its last result, which a virtual thread of its own refreshes every
 * {@code interval}: a probe gets its answer at once, whatever the check costs. The daemon's
 * readiness check waits up to the pool's 5 s for a connection while the database is down, longer
 * than a probe's timeout (the chart's is 3 s); a probe that times out says nothing of why.
 *
 * <p>A result older than {@code staleAfter} (a refresh that hangs) is answered as down, saying
 * since when the check has not finished, so a hung database still turns the replica unready.
 * Before the first result the answer is down, "not checked yet".
 */
public final class CachedHealthCheck implements HealthCheck, AutoCloseable {
    private record Result(Health health, long atNanos) {}

    private final HealthCheck check;
    private final Duration interval;
    private final Duration staleAfter;
    private final LongSupplier nanoTime;
    private final long startedNanos;
    private final Thread refresher;
    private volatile Result last;

    private CachedHealthCheck(HealthCheck check, Duration interval, Duration staleAfter, LongSupplier nanoTime) {
        if (interval.isNegative() || interval.isZero() || staleAfter.compareTo(interval) <= 0) {
            throw new IllegalArgumentException("interval must be positive and staleAfter longer than interval");
        }
        this.check = check;
        this.interval = interval;
        this.staleAfter = staleAfter;
        this.nanoTime = nanoTime;
        this.startedNanos = nanoTime.getAsLong();
        this.refresher = Thread.ofVirtual().name("health-refresh").unstarted(this::refreshUntilClosed);
    }

    /** Starts refreshing {@code check} now and every {@code interval} after each result. */
    public static CachedHealthCheck start(HealthCheck check, Duration interval, Duration staleAfter) {
        return start(check, interval, staleAfter, System::nanoTime);
    }

    static CachedHealthCheck start(HealthCheck check, Duration interval, Duration staleAfter, LongSupplier nanoTime) {
        CachedHealthCheck cached = new CachedHealthCheck(check, interval, staleAfter, nanoTime);
        cached.refresher.start();
        return cached;
    }

    @Override
    public Health check() {
        Result result = last;
        long since = result == null ? startedNanos : result.atNanos();
        long ageNanos = nanoTime.getAsLong() - since;
        if (ageNanos > staleAfter.toNanos()) {
            return Health.down("the check has not finished for " + Duration.ofNanos(ageNanos).toSeconds() + " s"
                    + (result == null ? "" : " (last: " + (result.health().passed() ? "up" : result.health().reason()) + ")"));
        }
        return result == null ? Health.down("not checked yet") : result.health();
    }

    /** Stops refreshing; the refresh in progress, if any, is interrupted. */
    @Override
    public void close() {
        refresher.interrupt();
    }

    private void refreshUntilClosed() {
        while (!Thread.currentThread().isInterrupted()) {
            Health health;
            try {
                health = check.check();
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                health = Health.down(e.toString());
            }
            last = new Result(health, nanoTime.getAsLong());
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
