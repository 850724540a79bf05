package dev.leasecron.app.scheduler;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A schedule with no further instant (30 February, a year long past) logs a warning once and its job's
 * loop ends: it neither spins nor asks the schedule again.
 */
class ScheduleExhaustedTest {

    private static ScheduledJob job(String name, RecordingJob job, AnchoredInstants instants, boolean clusterWide) {
        return new ScheduledJob(name, "cron:" + name, instants, job.type(), job, Map.of(), Duration.ofMinutes(1), true,
                clusterWide);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aScheduleThatNeverFiresWarnsOnceAndItsLoopEnds(TestDatabase db) throws Exception {
        String name = uniqueName("never-fires");
        RecordingJob job = new RecordingJob();
        AnchoredInstants never = AnchoredInstants.only();
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, db.pool(4))) {
            replica.start(job(name, job, never, true));
            assertLoopEndsWithOneWarning(log, name, never);
            assertTrue(job.rounds().isEmpty());
            assertEquals(List.of(), replica.leases.views().rows(List.of("cron:" + name)), "nothing was ever claimed");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aClusterWideScheduleThatEndsRunsItsLastInstantThenWarnsAndItsLoopEnds(TestDatabase db) throws Exception {
        assertLastInstantRunsThenLoopEnds(db, true);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aReplicaScopedScheduleThatEndsRunsItsLastInstantThenWarnsAndItsLoopEnds(TestDatabase db) throws Exception {
        assertLastInstantRunsThenLoopEnds(db, false);
    }

    private static void assertLastInstantRunsThenLoopEnds(TestDatabase db, boolean clusterWide) throws Exception {
        String name = uniqueName("ends");
        RecordingJob job = new RecordingJob();
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, db.pool(4))) {
            Instant last = replica.leases.readDatabaseClock().plusMillis(1000);
            AnchoredInstants once = AnchoredInstants.only(last);
            replica.start(job(name, job, once, clusterWide));
            await().atMost(Duration.ofSeconds(10)).until(() -> !job.rounds().isEmpty());
            assertLoopEndsWithOneWarning(log, name, once);
            assertEquals(1, job.rounds().size());
            assertEquals(last, job.rounds().getFirst().instant());
            assertEquals(List.of("ended " + name + " ok"), replica.events("ended " + name));
        }
    }

    /** One warning, and from then on the loop asks the schedule nothing more: it has ended. */
    private static void assertLoopEndsWithOneWarning(LogCapture log, String name, AnchoredInstants instants) {
        await().atMost(Duration.ofSeconds(10)).until(() -> !log.of("schedule.exhausted", name).isEmpty());
        int asked = instants.nextCalls();
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> instants.nextCalls() == asked && log.of("schedule.exhausted", name).size() == 1);
        ILoggingEvent warning = log.of("schedule.exhausted", name).getFirst();
        assertEquals(Level.WARN, warning.getLevel());
        assertTrue(log.of("job.crashed", name).isEmpty(), log.dump(name));
    }
}
