package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.LogCapture.kv;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.leasecron.lease.LeaseFailure;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.LeaseRow;
import dev.leasecron.lease.testing.Outage;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A round's lease lost while it runs: the round that stops because of it is cut short, its loss logged
 * once and its end not recorded, so its instant runs again; a round whose job returns normally all the
 * same ran to its end, is recorded finished without the lease, and says the lease was lost.
 */
class LostLeaseTest {
    /**
     * A lease that outlives the local deadline by 4 s: a round that lost its lease at the deadline while
     * the database still counts it held has time to end before the row expires.
     */
    private static final LeaseTimings WIDE_GAP = new LeaseTimings(
            Duration.ofMillis(6000), Duration.ofMillis(200), Duration.ofMillis(2000), Duration.ofMillis(500));

    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private LeaseFailure.Restore restore;

    @BeforeEach
    void recordFailures() {
        restore = LeaseFailure.setFail(failures::add);
    }

    @AfterEach
    void restoreFailures() {
        restore.close();
    }

    /** One instant in the test's time: {@code first}, then a minute later. */
    private static ScheduledJob once(String name, RecordingJob job, Instant first) {
        return new ScheduledJob(name, "cron:" + name, AnchoredInstants.every(Duration.ofMinutes(1), first), job.type(), job,
                Map.of(), Duration.ofMinutes(1), false, true);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aLostLeaseIsLoggedOnceAndItsRoundRecordsNoEnd(TestDatabase db) throws Exception {
        // The database stops answering: the lease is lost at the local deadline while the row still counts
        // it held, so nothing but the round's own end could touch the row before it expires.
        String name = uniqueName("lost");
        RecordingJob job = new RecordingJob();
        Outage outage = new Outage(db.pool(4));
        job.behave(context -> {
            if (!context.rerun()) {
                outage.down();
                try {
                    Thread.sleep(Duration.ofMinutes(1)); // until the loss interrupts it
                } finally {
                    outage.up();
                }
            }
        });
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, WIDE_GAP, outage.dataSource())) {
            Instant first = replica.leases.readDatabaseClock().plusMillis(1000);
            replica.start(once(name, job, first));
            await().atMost(Duration.ofSeconds(15)).until(() -> !replica.events("ended " + name).isEmpty());
            assertEquals(List.of("ended " + name + " cut_short"), replica.events("ended " + name), "stopped by the loss");
            RecordingJob.Round cut = job.rounds().getFirst();

            // Neither finished nor given back: the row is as the claim left it, until it expires.
            LeaseRow row = replica.leases.views().rows(List.of("cron:" + name)).getFirst();
            assertTrue(row.held(), "left to expire: " + row);
            assertEquals(cut.term(), row.term(), "still the lost holder's: " + row);
            assertEquals(first.toEpochMilli(), row.unfinishedSlotMs(), "no end recorded: " + row);

            List<ILoggingEvent> lost = log.of("lease.lost", name);
            assertEquals(1, lost.size(), "the loss is logged once: " + log.dump(name));
            assertEquals(Long.toString(cut.term()), kv(lost.getFirst(), "term"));
            ILoggingEvent end = log.of("round.end", name).getFirst();
            assertEquals("cut_short", kv(end, "outcome"));
            assertTrue(kv(end, "error").contains("lost"), "its end names the loss: " + kv(end, "error"));
            assertTrue(log.of("round.finish_failed", name).isEmpty(), log.dump(name));
            assertTrue(log.of("round.release_failed", name).isEmpty(), log.dump(name));

            // Once the lease has expired, the instant runs again.
            await().atMost(WIDE_GAP.leaseDuration().plusSeconds(5))
                    .until(() -> replica.events.contains("ended " + name + " ok rerun"));
            assertEquals(first, job.rounds(RecordingJob.Round::rerun).getFirst().instant());
            assertEquals(1, log.of("lease.lost", name).size(), "logged once, still: " + log.dump(name));
            assertEquals(List.of(), failures, "the round stopped within the step-down grace");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aJobReturningNormallyAfterItsLeaseWasLostCountsAsFinishedAndTheLossIsLogged(TestDatabase db) throws Exception {
        // The database stops answering: the lease is lost at the local deadline while the row still counts
        // it held, so no rerun can start beside the round. The job sees the loss and returns normally.
        String name = uniqueName("lost-returns");
        RecordingJob job = new RecordingJob();
        Outage outage = new Outage(db.pool(4));
        job.behave(context -> {
            if (!context.rerun()) {
                outage.down();
                windDownUntil(() -> context.cancellation().isCancelled());
                outage.up();
            }
        });
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, WIDE_GAP, outage.dataSource())) {
            Instant first = replica.leases.readDatabaseClock().plusMillis(1000);
            replica.start(once(name, job, first));

            await().atMost(Duration.ofSeconds(15)).until(() -> !replica.events("ended " + name).isEmpty());
            assertEquals(List.of("ended " + name + " ok"), replica.events("ended " + name), "ran to its end");
            long term = job.rounds().getFirst().term();
            List<ILoggingEvent> said = log.of("lease.lost", name, LogCapture.SCHEDULER);
            assertEquals(1, said.size(), "the round's end says its lease was lost: " + log.dump(name));
            assertEquals(Long.toString(term), kv(said.getFirst(), "term"));
            assertEquals(1, log.of("lease.lost", name, LogCapture.LEASE).size(), log.dump(name));
            ILoggingEvent end = log.of("round.end", name).getFirst();
            assertEquals("ok", kv(end, "outcome"));

            LeaseRow row = replica.leases.views().rows(List.of("cron:" + name)).getFirst();
            assertEquals(0, row.unfinishedSlotMs(), "its end is recorded, without the lease: " + row);
            assertTrue(replica.leases.slots().unfinishedSlots(List.of("cron:" + name)).isEmpty(), "never rerun");
            assertTrue(job.rounds(RecordingJob.Round::rerun).isEmpty());
            assertEquals(List.of(), failures, "the job returned within the step-down grace");
        }
    }

    /** Waits for {@code done} as work that winds down on its own terms would: interrupts do not stop it. */
    private static void windDownUntil(BooleanSupplier done) {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - until > 0) {
                throw new IllegalStateException("waited 20 s in vain");
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                // The round's stop signal: this work takes its time.
            }
        }
    }
}
