package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.LogCapture.kv;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A job that throws an {@link Error} (an assertion, a linkage problem in a plugin, a stack overflow)
 * has failed like one that throws an exception: logged failed with the error's stack, its end
 * recorded, never rerun, and the schedule goes on.
 */
class JobErrorTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    /** What a broken plugin might throw. */
    static final class PluginError extends Error {
        PluginError(String message) {
            super(message);
        }
    }

    private static ScheduledJob job(String name, RecordingJob job, boolean clusterWide) {
        return new ScheduledJob(name, "cron:" + name, new EveryPeriod(SECOND), job.type(), job,
                Map.of(), Duration.ofMinutes(1), false, clusterWide);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aClusterWideJobThrowingAnErrorHasFailedAndItsScheduleGoesOn(TestDatabase db) throws Exception {
        assertErrorIsAFailure(db, true);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aReplicaScopedJobThrowingAnErrorHasFailedAndItsScheduleGoesOn(TestDatabase db) throws Exception {
        assertErrorIsAFailure(db, false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aFailureTheJobReportsIsLoggedAsOneLineWithoutAStack(TestDatabase db) throws Exception {
        String name = uniqueName("reported");
        RecordingJob job = new RecordingJob();
        job.behave(context -> {
            throw new Exception("command exited with status 3");
        });
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, db.pool(4))) {
            replica.start(job(name, job, true));
            await().atMost(Duration.ofSeconds(15)).until(() -> log.of("round.end", name).size() >= 1);
            ILoggingEvent end = log.of("round.end", name).getFirst();
            assertEquals("failed", kv(end, "outcome"));
            assertEquals("command exited with status 3", kv(end, "error"), log.dump(name));
            assertEquals(Exception.class.getName(), kv(end, "error_type"));
            assertEquals(null, end.getThrowableProxy(), "no stack for a failure the job reports: " + end);
        }
    }

    private static void assertErrorIsAFailure(TestDatabase db, boolean clusterWide) throws Exception {
        String name = uniqueName("error");
        RecordingJob job = new RecordingJob();
        job.behave(context -> {
            throw new PluginError("broken plugin");
        });
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, db.pool(4))) {
            replica.start(job(name, job, clusterWide));
            await().atMost(Duration.ofSeconds(15)).until(() -> replica.events("ended " + name).size() >= 3);

            List<String> ended = replica.events("ended " + name);
            assertTrue(ended.stream().allMatch(e -> e.equals("ended " + name + " failed")), "every round failed: " + ended);
            Set<Instant> instants = job.rounds().stream().map(RecordingJob.Round::instant).collect(Collectors.toSet());
            assertEquals(job.rounds().size(), instants.size(), "no instant ran twice: " + job.rounds());
            assertTrue(job.rounds().stream().noneMatch(RecordingJob.Round::rerun));

            List<ILoggingEvent> ends = log.of("round.end", name);
            assertTrue(ends.size() >= 3, log.dump(name));
            for (ILoggingEvent end : ends) {
                assertEquals("failed", kv(end, "outcome"));
                assertTrue(LogCapture.carries(end, PluginError.class), "logged with the error's stack: " + end);
            }
            assertTrue(log.of("job.crashed", name).isEmpty(), "the loop goes on: " + log.dump(name));
            if (clusterWide) {
                assertTrue(replica.leases.slots().unfinishedSlots(List.of("cron:" + name)).isEmpty(), "every end recorded");
            }
        }
    }
}
