package dev.leasecron.app.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.Unfinished;
import dev.leasecron.lease.sql.LeaseRow;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A round hands in its end and frees its thread; it counts as running until its end is on record. */
class RoundRunnerTest {
    private final LeaseScope claiming = LeaseScope.root();
    private final LeaseScope rounds = LeaseScope.root();
    private final InFlight inFlight = new InFlight();
    private final RecordingJob recording = new RecordingJob();
    private Leases leases;
    private RoundRunner runner;

    private void start(TestDatabase db) {
        DataSource pool = db.pool(4);
        leases = db.leases(TestTimings.FAST, pool);
        DueClock clock = new DueClock(leases);
        runner = new RoundRunner(leases, SharedStatements.batched(leases, clock, claiming, () -> 1, QuietCollection.OFF),
                new GuardedTransactions(leases, pool, Map.of()), rounds, clock, RoundListener.NONE, inFlight);
    }

    private ScheduledJob job(String name) {
        return new ScheduledJob(name, "cron:" + name, new EveryPeriod(Duration.ofHours(1)), recording.type(), recording,
                Map.of(), Duration.ofMinutes(1), true, true);
    }

    private Handle claim(ScheduledJob job) throws Exception {
        Instant slot = leases.readDatabaseClock().truncatedTo(ChronoUnit.SECONDS);
        return leases.claimSlot(job.leaseName(), slot).orElseThrow();
    }

    private LeaseRow row(ScheduledJob job) {
        return leases.rows(List.of(job.leaseName())).getFirst();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundThatRanToItsEndIsOnRecordAndNoLongerCountedWhenItsEndCompletes(TestDatabase db) throws Exception {
        start(db);
        ScheduledJob job = job(TestDatabase.uniqueName("ends"));
        Handle handle = claim(job);
        AtomicReference<String> goesOnOn = new AtomicReference<>();

        Instant passed = runner.run(job, handle)
                .whenComplete((p, f) -> goesOnOn.set(Thread.currentThread().getName()))
                .get(10, TimeUnit.SECONDS);

        assertEquals(handle.slot().orElseThrow(), passed);
        assertEquals(0, inFlight.running(), "counted until its end was recorded, not after");
        LeaseRow row = row(job);
        assertEquals(0, row.unfinishedSlotMs(), "the finish is on record: " + row);
        assertFalse(row.held(), "the name is given back: " + row);
        assertTrue(goesOnOn.get().equals("round-endings") || goesOnOn.get().equals(Thread.currentThread().getName()),
                "goes on on the rounds' endings thread, not the statement's: " + goesOnOn.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundCutShortGivesItsLeaseBackForARerunBeforeItsEndCompletes(TestDatabase db) throws Exception {
        start(db);
        ScheduledJob job = job(TestDatabase.uniqueName("cut"));
        Handle handle = claim(job);
        CountDownLatch running = new CountDownLatch(1);
        recording.behave(context -> {
            running.countDown();
            Thread.sleep(Duration.ofMinutes(1));
        });

        CompletableFuture<Instant> ended;
        try (ExecutorService roundThread = Executors.newVirtualThreadPerTaskExecutor()) {
            ended = CompletableFuture.supplyAsync(() -> runner.run(job, handle), roundThread).thenCompose(end -> end);
            assertTrue(running.await(10, TimeUnit.SECONDS));
            rounds.cancel("shutting down");
        }

        assertEquals(handle.slot().orElseThrow(), ended.get(10, TimeUnit.SECONDS));
        assertEquals(0, inFlight.running());
        assertEquals(List.of(job.leaseName()),
                leases.unfinishedSlots(List.of(job.leaseName())).stream().map(Unfinished::name).toList(),
                "released unfinished, free for a rerun");
    }
}
