package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.LogCapture.kv;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.LeaseRow;
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
 * A round whose finish statement fails keeps its lease until it expires, and its instant then runs
 * again, as a crashed holder's would: the end was never recorded.
 */
class FinishFailedTest {
    /** Twice the 3 s lease: the lease expires, and the rerun runs, well before the job's next instant. */
    private static final Duration PERIOD = Duration.ofSeconds(6);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundWhoseEndCouldNotBeRecordedRunsAgainLikeACrashedOne(TestDatabase db) throws Exception {
        String name = uniqueName("finish-failed");
        RecordingJob job = new RecordingJob();
        Outage outage = new Outage(db.pool(4));
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, outage.dataSource())) {
            Instant first = replica.leases.readDatabaseClock().plusMillis(1500);
            // The round's work is done when the database stops answering: its finish fails.
            job.behave(context -> {
                if (!context.rerun() && context.instant().equals(first)) {
                    outage.down();
                }
            });
            replica.start(new ScheduledJob(name, "cron:" + name, AnchoredInstants.every(PERIOD, first), job.type(), job,
                    Map.of(), Duration.ofMinutes(1), false, true));

            await().atMost(Duration.ofSeconds(10)).until(() -> !log.of("round.finish_failed", name).isEmpty());
            long term = job.rounds().getFirst().term();
            assertEquals(Long.toString(term), kv(log.of("round.finish_failed", name).getFirst(), "term"));
            outage.up();

            await().atMost(Duration.ofSeconds(10)).until(() -> replica.events.contains("ended " + name + " ok rerun"));
            List<RecordingJob.Round> rounds = job.rounds();
            assertEquals(2, rounds.size(), "the round, then its rerun: " + rounds);
            assertEquals(first, rounds.get(1).instant(), "the instant whose end was not recorded runs again");
            assertTrue(rounds.get(1).rerun(), "as a rerun: " + rounds);
            assertTrue(rounds.get(1).term() > term, "under a lease of its own: " + rounds);
            assertEquals(List.of("ended " + name + " ok", "ended " + name + " ok rerun"), replica.events("ended " + name),
                    "the first round ran to its end; only its record was missing");
            LeaseRow row = replica.leases.views().rows(List.of("cron:" + name)).getFirst();
            assertEquals(0, row.unfinishedSlotMs(), "the rerun's end is on record: " + row);
            assertTrue(log.of("instant.superseded", name).isEmpty(), log.dump(name));
        }
    }
}
