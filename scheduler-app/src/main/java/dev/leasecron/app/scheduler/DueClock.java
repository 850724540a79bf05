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
    /**
     * Within this of an instant, a sample older than {@link #FRESH_NANOS} is refreshed with a read of
     * the clock alone: its bound is a round trip behind the database at most, where a claim's sample
     * can trail by the tens of milliseconds a batch read takes. One statement per replica serves every
     * job due at that instant.
     */
    private static final Duration LAST_STRETCH = Duration.ofSeconds(1);
    private static final long FRESH_NANOS = Duration.ofSeconds(5).toNanos();

    private static final LeaseScope NEVER_ENDS = LeaseScope.root();

    private final Leases leases;
    /** True on a primary database that cannot carry leases: see {@link #processClock(Leases)}. */
    private final boolean fromProcess;
    private boolean tried;
    private long lastTryNanos;

    DueClock(Leases leases) {
        this(leases, false);
    }

    private DueClock(Leases leases, boolean fromProcess) {
        this.leases = leases;
        this.fromProcess = fromProcess;
    }

    /**
     * A clock for a primary database that cannot carry leases (ClickHouse), where only jobs of every
     * replica run: it reads this process's clock, since the lease statements that read the database's
     * are not there, and a job run by every replica on its own has no lease to decide with it.
     */
    static DueClock processClock(Leases leases) {
        return new DueClock(leases, true);
    }

    /**
     * A lower bound of the database's now. Reads the database clock when the last sample is stale;
     * when the database does not answer, an old sample still beats the process clock, and with no
     * sample at all it tries again every retry interval.
     *
     * @throws InterruptedException {@code until} ended before the database clock could be read
     */
    Instant now(LeaseScope until) throws InterruptedException {
        if (fromProcess) {
            return Instant.now();
        }
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

    /** Reads the database clock unless a sample younger than {@code nanos} came meanwhile; failures are left to {@link #now}. */
    private synchronized void refreshOlderThan(long nanos) {
        long at = System.nanoTime();
        // A database that does not answer is asked once per that age, not by every job waiting.
        if (leases.clock().sampleAgeNanos() < nanos || (tried && at - lastTryNanos < nanos)) {
            return;
        }
        tried = true;
        lastTryNanos = at;
        try {
            leases.readDatabaseClock();
        } catch (LeaseDatabaseException e) {
            // The sample kept still bounds the database's now from below; it fires late, never early.
        }
    }

    /**
     * {@link #now}, waiting for nothing but the database to answer: for a round's own reads of the
     * clock, which no scope ends; {@code fallback} when the thread is interrupted meanwhile.
     */
    Instant nowOr(Instant fallback) {
        try {
            return now(NEVER_ENDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fallback;
        }
    }

    /**
     * The last instant of {@code instants} that has come, by this clock's lower bound of the
     * database's now: {@code instant} itself, or a later one a round of it overran, which its end
     * takes along (skipped). An instant that came in the last moments of the round, past the bound, is
     * not taken along: it is claimed right after the round instead, a few milliseconds late, which
     * costs no statement, where reading the database clock at every round's end cost one per round.
     */
    Instant lastCome(Instants instants, Instant instant) {
        return instants.latestAtOrBefore(nowOr(instant)).filter(p -> p.isAfter(instant)).orElse(instant);
    }

    /**
     * How long to wait before asking again whether {@code instant} is due: zero once the database clock
     * has reached it. Far from the instant the wait ends at the start of the last stretch, so the sample
     * can be refreshed there; no wait is longer than {@link #MAX_SLICE}.
     *
     * @throws InterruptedException {@code until} ended before the database clock could be read
     */
    Duration nextWait(Instant instant, LeaseScope until) throws InterruptedException {
        Duration left = Duration.between(now(until), instant);
        if (!fromProcess && left.isPositive() && left.compareTo(LAST_STRETCH) < 0
                && leases.clock().sampleAgeNanos() >= FRESH_NANOS) {
            refreshOlderThan(FRESH_NANOS);
            left = Duration.between(now(until), instant);
        }
        if (!left.isPositive()) {
            return Duration.ZERO;
        }
        Duration slice = left.compareTo(LAST_STRETCH) > 0 ? left.minus(LAST_STRETCH) : left;
        return slice.compareTo(MAX_SLICE) < 0 ? slice : MAX_SLICE;
    }
}
