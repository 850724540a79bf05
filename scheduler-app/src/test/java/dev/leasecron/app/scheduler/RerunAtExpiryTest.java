package dev.leasecron.app.scheduler;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A holder killed before its first renewal leaves a lease that expires one lease duration after its
 * claim. For a job whose period is that duration the expiry is one of the job's own instants, and
 * the instant cut short must be rerun, not given up to the claim of that next instant.
 */
class RerunAtExpiryTest {
    /** The period of the job and the lease's duration: the expiry falls on the job's next instant. */
    private static final Duration PERIOD = Duration.ofMillis(3000);
    /** Renewals every 1.4 s: the sweep looks every 700 ms. */
    private static final LeaseTimings TIMINGS = new LeaseTimings(PERIOD, Duration.ofMillis(1400),
            Duration.ofMillis(2000), Duration.ofMillis(500));
    /**
     * How long before an instant the survivor starts: its sweep then looks about 350 ms before the
     * dead holder's lease expires and next about 350 ms after, which is after the survivor's own claim
     * of the next instant (refused at the instant before, it goes out 250 ms after its instant,
     * SchedulerSettings.putOff). Looking only on its cadence, the sweep would come second.
     */
    private static final long START_AHEAD_MS = 850;
    /** How long before that instant the dead holder claims it: ahead of the survivor's claim. */
    private static final long CLAIM_AHEAD_MS = 130;

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void instantCutShortByAKilledHolderIsRerunBeforeTheNextInstantCanGiveItUp(TestDatabase db) throws Exception {
        Leases dead = db.leases(TIMINGS);
        // The first statements of a process are slow (class loading): not on the clock below.
        dead.slots().claimSlot(uniqueName("warm-up"), Instant.parse("2026-01-01T00:00:00Z")).orElseThrow().release();

        // Nor is the first start of a scheduler on this database in this JVM (its classes and first
        // statements): a replica of another job starts and stops before.
        try (Replica warmUp = new Replica(db, TIMINGS)) {
            warmUp.start(job(uniqueName("warm-up-job"), new RecordingJob(), "warm-up"));
        }
        // A start that took past the period on a loaded machine proves nothing either way: tried again.
        for (int attempt = 1; !killedHolderAtExpiry(db, dead); attempt++) {
            assertTrue(attempt < 3, "the survivor never started within the period before the dead holder's claim");
        }
    }

    /** One try; false when the survivor's start took past the period, so the scene could not be set. */
    private static boolean killedHolderAtExpiry(TestDatabase db, Leases dead) throws Exception {
        RecordingJob job = new RecordingJob();
        String name = uniqueName("killed");
        try (Replica survivor = new Replica(db, TIMINGS)) {
            // Its start reads the jobs' suspensions before it claims: that first read, off the clock too.
            survivor.leases.controls().suspensions(List.of("cron:" + name));
            Instant cut = awaitWithin(dead, START_AHEAD_MS);
            survivor.start(job(name, job, "survivor"));
            // The dead holder claims the instant just before it comes and is never heard of again; the
            // survivor's claim of it is refused, so its claim of the next one is put off.
            if (!cut.equals(awaitWithin(dead, CLAIM_AHEAD_MS))) {
                return false;
            }
            dead.slots().claimSlot("cron:" + name, cut).orElseThrow();
            assertTrue(dead.readDatabaseClock().isBefore(cut), "claimed ahead of the instant (a loaded machine?)");

            String superseded = "superseded " + name;
            await().atMost(PERIOD.multipliedBy(3)).until(() -> !job.rounds().isEmpty() || survivor.events.contains(superseded));
            List<RecordingJob.Round> rounds = job.rounds();
            assertTrue(!survivor.events.contains(superseded),
                    "the cut-short instant was given up instead of rerun: " + survivor.events + " " + rounds);
            RecordingJob.Round first = rounds.getFirst();
            assertEquals(cut, first.instant(), "the cut-short instant runs first: " + rounds);
            assertTrue(first.rerun(), "as a rerun: " + rounds);
            return true;
        }
    }

    private static ScheduledJob job(String name, RecordingJob recording, String replica) {
        return new ScheduledJob(name, "cron:" + name, new EveryPeriod(PERIOD), recording.type(), recording,
                Map.of("replica", replica), Duration.ofMinutes(1), false, true);
    }

    /** Waits until the database clock is within {@code aheadMs} of the job's next instant, and returns that instant. */
    private static Instant awaitWithin(Leases leases, long aheadMs) {
        await().atMost(PERIOD.multipliedBy(3)).pollInterval(Duration.ofMillis(10)).until(() ->
                leases.readDatabaseClock().toEpochMilli() % PERIOD.toMillis() >= PERIOD.toMillis() - aheadMs);
        return new EveryPeriod(PERIOD).next(leases.readDatabaseClock()).orElseThrow();
    }
}
