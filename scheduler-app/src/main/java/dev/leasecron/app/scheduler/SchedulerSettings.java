package dev.leasecron.app.scheduler;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The scheduler's tuning, in one validated value; {@link #DEFAULTS} is what the daemon runs with, and
 * {@link #describe()} is what it logs at start. The lease's own timings ({@code LeaseTimings}) are not
 * here: they are the protocol's, these only shape how this replica uses it.
 *
 * @param putOff how long after its instant a claim refused at the job's previous instant goes out, when
 *     it does not contest the instant ({@link ClaimPlacement}): past the time the round starts of an
 *     instant take, and small next to the lease's 15 s, which it adds to the takeover of the jobs of a
 *     replica that stopped
 * @param endingWindow how long a round's finish or release waits for the others ending with it before
 *     their shared statement goes out ({@link RoundEnds})
 * @param catchUpWindow how recent the instant missed while no replica ran must be for the catch-up at
 *     start to run it; older ones are logged missed
 * @param censusEvery how often the replicas sharing the jobs are counted ({@link ReplicaCensus})
 * @param censusRecent how recent a claim must be for its replica to count
 * @param sweepsPerRetryInterval how often, per retry interval of the lease, the instants cut short are
 *     looked for ({@link RerunSweep})
 */
public record SchedulerSettings(
        Duration putOff,
        Duration endingWindow,
        Duration catchUpWindow,
        Duration censusEvery,
        Duration censusRecent,
        int sweepsPerRetryInterval) {

    /** The defaults the daemon runs with. */
    public static final SchedulerSettings DEFAULTS = new SchedulerSettings(
            Duration.ofMillis(250), Duration.ofMillis(5), Duration.ofHours(24), Duration.ofSeconds(10),
            Duration.ofHours(1), 2);

    /** @throws IllegalArgumentException a duration is negative, or a period or count is not positive */
    public SchedulerSettings {
        notNegative("putOff", putOff);
        notNegative("endingWindow", endingWindow);
        positive("catchUpWindow", catchUpWindow);
        positive("censusEvery", censusEvery);
        positive("censusRecent", censusRecent);
        if (sweepsPerRetryInterval < 1) {
            throw new IllegalArgumentException("sweepsPerRetryInterval must be at least 1, not " + sweepsPerRetryInterval);
        }
    }

    /** The settings by name, in milliseconds, for the daemon's start log entry. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("put_off_ms", putOff.toMillis());
        m.put("ending_window_ms", endingWindow.toMillis());
        m.put("catch_up_window_ms", catchUpWindow.toMillis());
        m.put("census_every_ms", censusEvery.toMillis());
        m.put("census_recent_ms", censusRecent.toMillis());
        m.put("sweeps_per_retry_interval", sweepsPerRetryInterval);
        return m;
    }

    private static void notNegative(String name, Duration d) {
        if (Objects.requireNonNull(d, name).isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, not " + d);
        }
    }

    private static void positive(String name, Duration d) {
        if (!Objects.requireNonNull(d, name).isPositive()) {
            throw new IllegalArgumentException(name + " must be positive, not " + d);
        }
    }
}
