package dev.leasecron.app.scheduler;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.leasecron.lease.Leases;
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
 * The rerun sweep's look failing (the database does not answer) is logged, and the sweep keeps looking
 * at the protocol's retry cadence: once the database answers again, the instant cut short runs again.
 */
class RerunSweepFailureTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aFailingSweepLogsAndKeepsLooking(TestDatabase db) throws Exception {
        String name = uniqueName("sweep-fails");
        // An instant cut short a moment ago and given back, free to run again; the job's next is an hour off.
        Leases seed = db.leases(TestTimings.FAST);
        Instant cut = seed.readDatabaseClock().minusSeconds(2);
        seed.slots().claimSlot("cron:" + name, cut).orElseThrow().release();

        RecordingJob job = new RecordingJob();
        Outage outage = new Outage(db.pool(4));
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, outage.dataSource())) {
            outage.down();
            replica.start(new ScheduledJob(name, "cron:" + name, AnchoredInstants.every(Duration.ofHours(1), cut),
                    job.type(), job, Map.of(), Duration.ofMinutes(1), false, true));

            // Looks every 100 ms; failed, it tries again every 200 ms (the retry interval).
            await().atMost(Duration.ofSeconds(10)).until(() -> log.all("rerun.sweep_failed").size() >= 3);
            assertTrue(job.rounds().isEmpty());
            assertTrue(log.all("rerun.sweep_failed").stream().allMatch(e -> e.getLevel() == Level.WARN
                    && e.getFormattedMessage().contains("unreachable")), "logged with the database's error");
            outage.up();

            await().atMost(Duration.ofSeconds(5)).until(() -> !job.rounds().isEmpty());
            assertEquals(1, job.rounds().size(), job.rounds().toString());
            assertEquals(cut, job.rounds().getFirst().instant());
            assertTrue(job.rounds().getFirst().rerun(), "the sweep ran it again: " + job.rounds());
            await().atMost(Duration.ofSeconds(5)).until(() -> replica.events.contains("ended " + name + " ok rerun"));
            assertTrue(replica.leases.slots().unfinishedSlots(List.of("cron:" + name)).isEmpty());
        }
    }
}
