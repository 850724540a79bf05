package dev.leasecron.app.scheduler;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.jobs.JobContext;
import dev.leasecron.lease.LeaseRow;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A shutdown gives running rounds a grace, cuts the rest short and waits a bounded time for them to
 * wind down: a job that ignores its cancellation does not hold the shutdown up, and its lease stays
 * renewed for as long as it runs on, so no peer runs its instant beside it.
 */
class ShutdownGiveUpTest {
    private static final Duration GRACE = Duration.ofMillis(300);
    private static final Duration WIND_DOWN = Duration.ofMillis(700);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aShutdownGivesUpOnAJobThatIgnoresItsCancellation(TestDatabase db) throws Exception {
        String name = uniqueName("stubborn");
        RecordingJob job = new RecordingJob();
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicReference<JobContext> running = new AtomicReference<>();
        job.behave(context -> {
            running.set(context);
            while (letGo.getCount() > 0) {
                try {
                    letGo.await();
                } catch (InterruptedException e) {
                    // ignores being cut short
                }
            }
        });
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, db.pool(4))) {
            Instant first = replica.leases.readDatabaseClock().plusMillis(1000);
            replica.start(new ScheduledJob(name, "cron:" + name, AnchoredInstants.every(Duration.ofMinutes(1), first),
                    job.type(), job, Map.of(), Duration.ofMinutes(1), false, true));
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> running.get() != null);
                String holder = replica.leases.views().rows(List.of("cron:" + name)).getFirst().holder();

                long started = System.nanoTime();
                CompletableFuture<Boolean> shutdown = CompletableFuture.supplyAsync(() -> {
                    try {
                        return replica.shutdown(GRACE, WIND_DOWN);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                boolean clean = shutdown.get(GRACE.plus(WIND_DOWN).plusSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
                Duration took = Duration.ofNanos(System.nanoTime() - started);

                assertFalse(clean, "a round is still running");
                assertTrue(took.compareTo(GRACE.plus(WIND_DOWN).minusMillis(50)) >= 0, "waited out grace and wind-down: " + took);
                assertEquals(1, replica.scheduler.roundsRunning());
                assertTrue(running.get().cancellation().isCancelled(), "the round was told to stop");
                assertEquals(1, log.all("daemon.cutting_short").stream()
                        .filter(e -> LogCapture.kv(e, "rounds").equals("1")).count(), "the cut is announced");

                // Longer than the 3 s lease: its renewals go on while the job runs on.
                await().during(Duration.ofMillis(3500)).atMost(Duration.ofSeconds(6)).until(() -> {
                    LeaseRow row = replica.leases.views().rows(List.of("cron:" + name)).getFirst();
                    return row.held() && row.holder().equals(holder);
                });
            } finally {
                letGo.countDown();
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> replica.scheduler.roundsRunning() == 0);
            assertEquals(List.of("ended " + name + " ok"), replica.events("ended " + name),
                    "it returned normally in the end: it ran to its end");
            assertEquals(0, replica.leases.views().rows(List.of("cron:" + name)).getFirst().unfinishedSlotMs());
        }
    }
}
