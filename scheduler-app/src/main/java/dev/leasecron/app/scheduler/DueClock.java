package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import java.time.Duration;
import java.time.Instant;

/**
 * Decides when an instant is due by the database clock, never the process clock: a replica whose
 * clock is minutes off still fires on time and never early. It runs on the lease module's
 * {@link dev.leasecron.lease.DatabaseClock}, which the claims feed, and reads the database clock
 * itself only when no statement has for a while.
 */
final class DueClock {
    /** Clocks drift apart slowly; a sample this old is refreshed before it decides anything. */
    private static final long STALE_NANOS = Duration.ofSeconds(30).toNanos();
    /** Long waits are cut into slices so a refreshed sample can shorten them. */
    private static final Duration MAX_SLICE = Duration.ofSeconds(30);

    private final Leases leases;

    DueClock(Leases leases) {
        this.leases = leases;
    }

    /**
     * A lower bound of the database's now. Reads the database clock when the last sample is stale;
     * when the database does not answer, an old sample still beats the process clock, and with no
     * sample at all it tries again every retry interval.
     *
     * @throws InterruptedException {@code until} ended before the database clock could be read
     */
    Instant now(LeaseScope until) throws InterruptedException {
        while (true) {
            if (leases.clock().sampleAgeNanos() < STALE_NANOS) {
                return leases.clock().now();
            }
            synchronized (this) {
                if (leases.clock().sampleAgeNanos() < STALE_NANOS) {
                    return leases.clock().now();
                }
                try {
                    leases.readDatabaseClock();
                    return leases.clock().now();
                } catch (LeaseDatabaseException e) {
                    if (leases.clock().known()) {
                        return leases.clock().now();
                    }
                }
            }
            if (until.await(leases.retryInterval())) {
                throw new InterruptedException("stopped before the database clock could be read");
            }
        }
    }

    /**
     * Waits until the database clock has reached {@code instant}.
     *
     * @return false when {@code until} ended first
     */
    boolean awaitDue(Instant instant, LeaseScope until) {
        try {
            while (!until.isCancelled()) {
                Duration left = Duration.between(now(until), instant);
                if (left.isNegative() || left.isZero()) {
                    return true;
                }
                if (until.await(left.compareTo(MAX_SLICE) < 0 ? left : MAX_SLICE)) {
                    return false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }
}
