package dev.leasecron.app.scheduler;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The liveness probe's question: has the dispatcher gone round its loop lately? */
class StuckDispatcherTest {
    private static final Duration WITHIN = Duration.ofSeconds(3);

    /** A schedule every second whose computation hangs once told to, as a bug in a schedule could. */
    private static final class HangingSchedule implements Instants {
        private final EveryPeriod every = new EveryPeriod(Duration.ofSeconds(1));
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile boolean hang;

        @Override
        public Optional<Instant> next(Instant after) {
            if (hang) {
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return every.next(after);
        }

        @Override
        public Optional<Instant> latestAtOrBefore(Instant at) {
            return every.latestAtOrBefore(at);
        }
    }

    @Test
    void aDispatcherWithNoJobWaitingIsNotStuck() throws Exception {
        try (Replica replica = new Replica(TestDatabases.of("sqlite"), TestTimings.FAST)) {
            replica.start();
            await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7))
                    .until(() -> replica.scheduler.stuck(WITHIN).isEmpty());
        }
    }

    @Test
    void aDispatcherThatStopsGoingRoundItsLoopIsStuckAndOneThatGoesRoundIsNot() throws Exception {
        TestDatabase db = TestDatabases.of("sqlite");
        HangingSchedule schedule = new HangingSchedule();
        RecordingJob job = new RecordingJob();
        String name = TestDatabase.uniqueName("stuck");
        try (Replica replica = new Replica(db, TestTimings.FAST)) {
            assertEquals(Optional.of("the dispatcher has not started"), replica.scheduler.stuck(WITHIN));
            replica.start(new ScheduledJob(name, "cron:" + name, schedule, job.type(), job, Map.of(), Duration.ofMinutes(1),
                    false, false));
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds().size() >= 2);
            assertEquals(Optional.empty(), replica.scheduler.stuck(WITHIN), "a job every second: a turn every second");

            schedule.hang = true;
            await().atMost(Duration.ofSeconds(15)).until(() -> replica.scheduler.stuck(WITHIN).isPresent());
            assertTrue(replica.scheduler.stuck(WITHIN).orElseThrow().startsWith("the dispatcher has not gone round its loop"));
            schedule.released.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> replica.scheduler.stuck(WITHIN).isEmpty());
        }
    }
}
