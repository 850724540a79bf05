package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.LogCapture.kv;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.Outage;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A claim that fails because the database did not answer is tried again every retry interval until
 * the job's next instant is due, and the instant whose claim failed is the one that runs; still
 * failing when the next instant comes, it is given up, logged as such.
 */
class ClaimRetryTest {
    /** Far longer than the retries the test needs (200 ms apart), so the next instant never cuts them off. */
    private static final Duration PERIOD = Duration.ofSeconds(2);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aClaimThatFailedIsTriedAgainWithinItsInstantAndThatInstantRuns(TestDatabase db) throws Exception {
        String name = uniqueName("claim-retry");
        RecordingJob job = new RecordingJob();
        Outage outage = new Outage(db.pool(4));
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, outage.dataSource())) {
            replica.start(new ScheduledJob(name, "cron:" + name, new EveryPeriod(PERIOD), job.type(), job,
                    Map.of(), Duration.ofMinutes(1), false, true));
            // A first round ends: from then on the loop claims each instant as it comes.
            await().atMost(Duration.ofSeconds(15)).until(() -> !replica.events("ended " + name).isEmpty());

            // The database stops answering shortly before an instant, so the claim sent at it fails.
            await().atMost(PERIOD.multipliedBy(3)).pollInterval(Duration.ofMillis(10)).until(() ->
                    replica.leases.readDatabaseClock().toEpochMilli() % PERIOD.toMillis() >= PERIOD.toMillis() - 500);
            outage.down();
            await().atMost(PERIOD.multipliedBy(3)).until(() -> !log.of("claim.failed", name).isEmpty());
            Instant failed = Instant.parse(kv(log.of("claim.failed", name).getFirst(), "instant"));
            outage.up();

            await().atMost(PERIOD.multipliedBy(2)).until(() -> !job.rounds(r -> r.instant().equals(failed)).isEmpty());
            List<RecordingJob.Round> ran = job.rounds(r -> r.instant().equals(failed));
            assertEquals(1, ran.size(), "the instant whose claim failed runs once: " + job.rounds());
            assertFalse(ran.getFirst().rerun(), "as its first round, not a rerun");
            assertTrue(log.of("instant.unclaimed", name).isEmpty(), "not given up: " + log.dump(name));
            assertTrue(log.of("instant.missed", name).isEmpty(), "nothing missed: " + log.dump(name));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aClaimStillFailingWhenTheNextInstantComesGivesItsInstantUp(TestDatabase db) throws Exception {
        String name = uniqueName("claim-given-up");
        RecordingJob job = new RecordingJob();
        Outage outage = new Outage(db.pool(4));
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, outage.dataSource())) {
            replica.start(new ScheduledJob(name, "cron:" + name, new EveryPeriod(PERIOD), job.type(), job,
                    Map.of(), Duration.ofMinutes(1), false, true));
            await().atMost(Duration.ofSeconds(15)).until(() -> !replica.events("ended " + name).isEmpty());

            outage.down();
            await().atMost(PERIOD.multipliedBy(4)).until(() -> !log.of("instant.unclaimed", name).isEmpty());
            outage.up();
            Instant givenUp = Instant.parse(kv(log.of("instant.unclaimed", name).getFirst(), "instant"));
            assertEquals(givenUp.toString(), kv(log.of("claim.failed", name).getFirst(), "instant"),
                    "tried again until the next instant came, then given up: " + log.dump(name));
            assertTrue(log.of("claim.failed", name).size() >= 3, "tried every retry interval: " + log.dump(name));

            await().atMost(PERIOD.multipliedBy(3)).until(() -> !job.rounds(r -> r.instant().isAfter(givenUp)).isEmpty());
            assertTrue(job.rounds(r -> r.instant().equals(givenUp)).isEmpty(), "the instant given up never runs: " + job.rounds());
        }
    }
}
