package dev.leasecron.app.scheduler;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.LeaseRow;
import dev.leasecron.lease.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Renewals that take long but succeed within their attempt timeout keep the lease: a round running
 * longer than the lease itself on a slow database is neither lost nor cut short.
 */
class SlowRenewalTest {
    /** Each renewal attempt may take 1.5 s (half the 3 s local deadline); the lease lasts 4 s. */
    private static final LeaseTimings TIMINGS = new LeaseTimings(
            Duration.ofMillis(4000), Duration.ofMillis(200), Duration.ofMillis(3000), Duration.ofMillis(500));
    /** Every statement this late: well within an attempt's 1.5 s, more than three renew intervals. */
    private static final Duration DELAY = Duration.ofMillis(700);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void slowButSuccessfulRenewalsKeepTheLease(TestDatabase db) throws Exception {
        String name = uniqueName("slow-renewals");
        RecordingJob job = new RecordingJob();
        SlowDatabase slow = new SlowDatabase(db.pool(4));
        job.behave(context -> {
            slow.delay(DELAY);
            try {
                Thread.sleep(TIMINGS.leaseDuration().plusSeconds(1)); // longer than the lease: only renewals keep it
            } finally {
                slow.delay(Duration.ZERO);
            }
        });
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TIMINGS, slow.dataSource())) {
            Instant first = replica.leases.readDatabaseClock().plusMillis(1000);
            replica.start(new ScheduledJob(name, "cron:" + name, AnchoredInstants.every(Duration.ofMinutes(1), first),
                    job.type(), job, Map.of(), Duration.ofMinutes(1), false, true));

            await().atMost(Duration.ofSeconds(20)).until(() -> !replica.events("ended " + name).isEmpty());
            assertEquals(List.of("ended " + name + " ok"), replica.events("ended " + name), log.dump(name));
            assertTrue(slow.slowed() >= 4, "the database was slow while the round ran: " + slow.slowed());
            assertTrue(log.of("lease.renew_failed", name).isEmpty(), "every renewal succeeded: " + log.dump(name));
            assertTrue(log.of("lease.lost", name).isEmpty(), log.dump(name));

            LeaseRow row = replica.leases.views().rows(List.of("cron:" + name)).getFirst();
            assertEquals(0, row.unfinishedSlotMs(), "finished: " + row);
            assertFalse(row.held(), "and given back under its own lease: " + row);
            assertEquals(1, job.rounds().size(), "never rerun: " + job.rounds());
        }
    }
}
