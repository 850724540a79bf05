package dev.leasecron.app.scheduler;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.LeaseRow;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A shutdown that begins while a claim is out waits for it: the claim commits before its statement
 * returns, so the round it wins is this replica's to run and record, and a shutdown that saw nothing
 * running would close the pool under it (its end could not be recorded, and a peer would run its
 * instant a second time).
 */
class ShutdownDuringClaimTest {
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aShutdownWaitsForTheRoundOfAClaimThatWasOut(TestDatabase db) throws Exception {
        String name = uniqueName("claim-out");
        RecordingJob job = new RecordingJob();
        GatedDatabase database = new GatedDatabase(db.pool(4), "claim-sender");
        try (Replica replica = Replica.over(db, TestTimings.FAST, database.dataSource())) {
            Instant first = replica.leases.readDatabaseClock().plusMillis(500);
            database.shut();
            replica.start(new ScheduledJob(name, "cron:" + name, AnchoredInstants.every(Duration.ofMinutes(1), first),
                    job.type(), job, Map.of(), Duration.ofMinutes(1), false, true));
            await().atMost(Duration.ofSeconds(10)).until(database::waiting);

            CompletableFuture<Boolean> shutdown = CompletableFuture.supplyAsync(() -> {
                try {
                    return replica.shutdown(Duration.ofSeconds(10), Duration.ofSeconds(1));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            await("the shutdown waits while the claim is out").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                    .until(() -> !shutdown.isDone());
            database.open();

            assertTrue(shutdown.get(15, TimeUnit.SECONDS), "no round left running when it returned");
            assertEquals(List.of("ended " + name + " ok"), replica.events("ended " + name), "the round won ran");
            LeaseRow row = replica.leases.views().rows(List.of("cron:" + name)).getFirst();
            assertEquals(first.toEpochMilli(), row.slotMs(), "the claim went out: " + row);
            assertEquals(0, row.unfinishedSlotMs(), "its end is on record: " + row);
        }
    }
}
