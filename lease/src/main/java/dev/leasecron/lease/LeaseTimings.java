package dev.leasecron.lease;

import java.time.Duration;
import java.util.Objects;

/**
 * The protocol's timings, checked together so that a holder always stops before its successor can
 * start.
 *
 * @param leaseDuration how long a claim or renewal holds the name, by the database clock (15 s)
 * @param renewInterval how often the holder renews, counted from the start of the previous attempt, a
 *     failed attempt included (2 s); also the retry interval after the database failed to answer
 * @param localDeadline how long after the start of the last successful renewal the holder gives
 *     itself up (10 s); the gap to {@code leaseDuration} absorbs a stalled or dropped statement
 *     without letting anyone else claim before the holder has stopped
 * @param stepDownGrace how long work under a lost lease has to return before the process fails (5
 *     s, the gap between the holder giving up and the database freeing the name)
 */
public record LeaseTimings(Duration leaseDuration, Duration renewInterval, Duration localDeadline, Duration stepDownGrace) {

    /** What a deployment runs: 15 s lease, 2 s renewals, 10 s local deadline, 5 s step-down grace. */
    public static final LeaseTimings DEFAULT =
            new LeaseTimings(Duration.ofSeconds(15), Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(5));

    /**
     * @throws IllegalArgumentException when a timing is not positive, when {@code leaseDuration} does
     *     not exceed {@code localDeadline} (a holder would run on after the name was free), or when
     *     {@code localDeadline} is not more than 1.2 times {@code renewInterval} (one late renewal
     *     would cost the lease, the bound client-go keeps)
     */
    public LeaseTimings {
        Objects.requireNonNull(leaseDuration, "leaseDuration");
        Objects.requireNonNull(renewInterval, "renewInterval");
        Objects.requireNonNull(localDeadline, "localDeadline");
        Objects.requireNonNull(stepDownGrace, "stepDownGrace");
        requirePositive("leaseDuration", leaseDuration);
        requirePositive("renewInterval", renewInterval);
        requirePositive("localDeadline", localDeadline);
        requirePositive("stepDownGrace", stepDownGrace);
        if (leaseDuration.compareTo(localDeadline) <= 0) {
            throw new IllegalArgumentException("leaseDuration (" + leaseDuration + ") must exceed localDeadline ("
                    + localDeadline + "): the holder must give up before anyone else can claim");
        }
        if (localDeadline.toNanos() * 10 <= renewInterval.toNanos() * 12) {
            throw new IllegalArgumentException("localDeadline (" + localDeadline + ") must exceed 1.2 x renewInterval ("
                    + renewInterval + "): one late renewal must not cost the lease");
        }
    }

    /** How long one renewal attempt may wait: half the local deadline, as client-go bounds a request. */
    public Duration attemptTimeout() {
        // Not dividedBy(2), which goes through BigDecimal: every round asks, on the path to its start.
        return Duration.ofNanos(localDeadline.toNanos() / 2);
    }

    private static void requirePositive(String field, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, not " + d);
        }
    }
}
