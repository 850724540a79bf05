package dev.leasecron.app.scheduler;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The dispatcher keeps every job's instants on a few threads of its own, whatever the number of jobs. */
class DispatcherTest {
    private static final int JOBS = 200;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void jobsWaitingForTheirInstantHoldNoThreadAndEachInstantRunsOnceInOrder(TestDatabase db) throws Exception {
        RecordingJob recording = new RecordingJob();
        String prefix = TestDatabase.uniqueName("dispatch");
        try (Replica replica = new Replica(db, TestTimings.FAST)) {
            int before = Thread.getAllStackTraces().size();
            replica.start(IntStream.range(0, JOBS).mapToObj(i -> prefix + "-" + i)
                    .map(name -> new ScheduledJob(name, "cron:" + name, new EveryPeriod(Duration.ofSeconds(1)),
                            recording.type(), recording, Map.of(), Duration.ofMinutes(1), false, true))
                    .toArray(ScheduledJob[]::new));
            await().atMost(Duration.ofSeconds(20)).until(() -> recording.rounds().stream()
                    .map(RecordingJob.Round::job).distinct().count() == JOBS);
            // Platform threads only: the rounds run on virtual threads, gone once they end.
            int platform = Thread.getAllStackTraces().size() - before;
            assertTrue(platform < 20, "a few threads of the scheduler's, not one per job: " + platform);

            String one = prefix + "-0";
            await().atMost(Duration.ofSeconds(20)).until(() -> recording.rounds().stream().filter(r -> r.job().equals(one)).count() >= 3);
            List<Instant> instants = recording.rounds().stream().filter(r -> r.job().equals(one))
                    .map(RecordingJob.Round::instant).limit(3).toList();
            assertTrue(instants.get(0).isBefore(instants.get(1)) && instants.get(1).isBefore(instants.get(2)),
                    "one after the other: " + instants);
            if (!instants.get(2).equals(instants.get(0).plusSeconds(2))) {
                // A loaded machine can claim an instant after the next one came: the stale one is
                // passed over for the latest, and the replica that wins logs it missed.
                assertTrue(!replica.events("missed " + one).isEmpty(), "an instant passed over is on record: " + instants);
            }
            List<RecordingJob.Round> all = recording.rounds();
            Set<RecordingJob.Round> seen = new java.util.HashSet<>();
            List<RecordingJob.Round> twice = all.stream().filter(r -> !seen.add(r)).toList();
            assertEquals(List.of(), twice, "no round twice");
        }
    }
}
