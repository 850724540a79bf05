package dev.leasecron.app.scheduler;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryQuery;
import dev.leasecron.lease.HistoryTrigger;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.Unfinished;
import dev.leasecron.lease.LeaseRow;
import dev.leasecron.lease.testing.Outage;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * A round counts as running until its end is on record. What the work threw decides its outcome: only
 * the interruption itself cuts a round short.
 */
class RoundRunnerTest {
    /**
     * A lease that outlives the local deadline by 4 s: a round that lost its lease at the deadline
     * while the database still counts it as held has time to end before the row expires.
     */
    private static final LeaseTimings WIDE_GAP = new LeaseTimings(
            Duration.ofMillis(6000), Duration.ofMillis(200), Duration.ofMillis(2000), Duration.ofMillis(500));

    private final LeaseScope claiming = LeaseScope.root();
    private final LeaseScope rounds = LeaseScope.root();
    private final RecordingJob recording = new RecordingJob();
    private final AtomicReference<Outcome> outcome = new AtomicReference<>();
    private final AtomicReference<String> endedOn = new AtomicReference<>();
    private final ListAppender<ILoggingEvent> entries = new ListAppender<>();
    private final Logger schedulerLog = (Logger) LoggerFactory.getLogger("leasecron.scheduler");
    private Leases leases;
    private RoundRunner runner;

    private void start(TestDatabase db) {
        DataSource pool = db.pool(4);
        start(TestTimings.FAST, pool);
    }

    private void start(LeaseTimings timings, DataSource pool) {
        leases = Leases.create(pool, timings, "test", LeaseListener.NONE);
        leases.initialize();
        DueClock clock = new DueClock(leases);
        RoundListener listener = new RoundListener() {
            @Override
            public void ended(ScheduledJob job, boolean rerun, Outcome how, Duration took) {
                endedOn.set(Thread.currentThread().getName());
                outcome.set(how);
            }
        };
        RoundEnds ends = new RoundEnds(leases, SchedulerSettings.DEFAULTS.endingWindow());
        RoundEvents events = new RoundEvents(listener);
        SuspendedInstants none = new SuspendedInstants(new Suspensions(leases, java.util.List::of, rounds, names -> {}), ends, clock, events);
        runner = new RoundRunner(leases, ends, new GuardedTransactions(leases, pool, Map.of()), rounds, clock, events,
                none);
        entries.start();
        schedulerLog.addAppender(entries);
    }

    @AfterEach
    void detachLog() {
        schedulerLog.detachAppender(entries);
    }

    private ScheduledJob job(String name) {
        return new ScheduledJob(name, "cron:" + name, new EveryPeriod(Duration.ofHours(1)), recording.type(), recording,
                Map.of(), Duration.ofMinutes(1), true, true);
    }

    private Handle claim(ScheduledJob job) throws Exception {
        Instant slot = leases.readDatabaseClock().truncatedTo(ChronoUnit.SECONDS);
        return leases.slots().claimSlot(job.leaseName(), slot).orElseThrow();
    }

    private LeaseRow row(ScheduledJob job) {
        return leases.views().rows(List.of(job.leaseName())).getFirst();
    }

    /** Runs the round on a thread of its own, as the dispatcher does; completes once its end is recorded. */
    private CompletableFuture<Instant> runInBackground(ScheduledJob job, Handle handle) {
        CompletableFuture<Instant> ended = new CompletableFuture<>();
        Thread.ofVirtual().name("test round").start(() -> {
            try {
                ended.complete(runner.run(job, handle));
            } catch (RuntimeException | Error e) {
                ended.completeExceptionally(e);
            }
        });
        return ended;
    }

    /** The {@code error} of the round's {@code round.end} entry. */
    private String endError(ScheduledJob job) {
        return entries.list.stream()
                .filter(e -> kv(e, "event").equals("round.end") && kv(e, "job").equals(job.name()))
                .map(e -> kv(e, "error"))
                .findFirst().orElseThrow(() -> new AssertionError("no round.end for " + job.name()));
    }

    private static String kv(ILoggingEvent e, String key) {
        return e.getKeyValuePairs() == null ? "" : e.getKeyValuePairs().stream()
                .filter(kv -> kv.key.equals(key)).map(kv -> Objects.toString(kv.value)).findFirst().orElse("");
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundThatRanToItsEndIsOnRecordAndNoLongerCountedWhenItsEndCompletes(TestDatabase db) throws Exception {
        start(db);
        ScheduledJob job = job(TestDatabase.uniqueName("ends"));
        Handle handle = claim(job);

        Instant passed = runInBackground(job, handle).get(10, TimeUnit.SECONDS);

        assertEquals(handle.slot().orElseThrow(), passed);
        LeaseRow row = row(job);
        assertEquals(0, row.unfinishedSlotMs(), "the finish is on record: " + row);
        assertFalse(row.held(), "the name is given back: " + row);
        assertEquals(Outcome.OK, outcome.get());
        assertEquals("test round", endedOn.get(), "ends on the round's own thread, not the statement's");
    }

    /** The job's one history row, once written: a claim's row is written off the claim's thread. */
    private HistoryEntry historyOf(ScheduledJob job) {
        return await().until(() -> leases.history().entries(HistoryQuery.latest(List.of(job.leaseName()), 10)),
                rows -> rows.size() == 1).getFirst();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void eachRoundsHistoryRowIsWrittenAtItsClaimAndCompletedAtItsEnd(TestDatabase db) throws Exception {
        start(db);
        ScheduledJob ok = job(TestDatabase.uniqueName("history-ok"));
        Handle okHandle = claim(ok);
        assertEquals(HistoryOutcome.RUNNING, historyOf(ok).outcome(), "written with the claim");
        runner.run(ok, okHandle);
        HistoryEntry okRow = historyOf(ok);
        assertEquals(HistoryOutcome.OK, okRow.outcome());
        assertEquals(Optional.of(HistoryTrigger.SCHEDULED), okRow.trigger());
        assertTrue(okRow.ended().isPresent() && okRow.duration().isPresent() && okRow.fireDelay().isPresent(), okRow.toString());
        assertEquals("", okRow.detail());

        ScheduledJob failed = job(TestDatabase.uniqueName("history-failed"));
        recording.behave(context -> {
            throw new IllegalStateException("disk full\nsecond line");
        });
        runner.run(failed, claim(failed));
        HistoryEntry failedRow = historyOf(failed);
        assertEquals(HistoryOutcome.FAILED, failedRow.outcome());
        assertTrue(failedRow.detail().contains("disk full"), failedRow.detail());

        ScheduledJob slow = new ScheduledJob(TestDatabase.uniqueName("history-timeout"), "", new EveryPeriod(Duration.ofHours(1)),
                recording.type(), recording, Map.of(), Duration.ofMillis(200), true, true);
        ScheduledJob timedOut = new ScheduledJob(slow.name(), "cron:" + slow.name(), slow.instants(), slow.type(), slow.job(),
                Map.of(), slow.timeout(), true, true);
        recording.behave(context -> Thread.sleep(Duration.ofMinutes(1)));
        runner.run(timedOut, claim(timedOut));
        HistoryEntry timeoutRow = historyOf(timedOut);
        assertEquals(HistoryOutcome.TIMEOUT, timeoutRow.outcome());
        assertFalse(timeoutRow.detail().isEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundCutShortByAShutdownIsRecordedCutShortWithItsRelease(TestDatabase db) throws Exception {
        start(db);
        ScheduledJob job = job(TestDatabase.uniqueName("history-cut"));
        Handle handle = claim(job);
        CountDownLatch running = new CountDownLatch(1);
        recording.behave(context -> {
            running.countDown();
            Thread.sleep(Duration.ofMinutes(1));
        });
        CompletableFuture<Instant> ended = runInBackground(job, handle);
        assertTrue(running.await(10, TimeUnit.SECONDS));
        rounds.cancel("shutting down");
        ended.get(10, TimeUnit.SECONDS);
        HistoryEntry row = historyOf(job);
        assertEquals(HistoryOutcome.CUT_SHORT, row.outcome());
        assertTrue(row.ended().isPresent());
        assertFalse(row.detail().isEmpty(), "the reason it was cut short");
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

        CompletableFuture<Instant> ended = runInBackground(job, handle);
        assertTrue(running.await(10, TimeUnit.SECONDS));
        rounds.cancel("shutting down");

        assertEquals(handle.slot().orElseThrow(), ended.get(10, TimeUnit.SECONDS));
        assertEquals(Outcome.CUT_SHORT, outcome.get());
        assertEquals(List.of(job.leaseName()),
                leases.slots().unfinishedSlots(List.of(job.leaseName())).stream().map(Unfinished::name).toList(),
                "released unfinished, free for a rerun");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aFailureOfItsOwnThatRacesAShutdownRanToItsEndAndIsNeverRerun(TestDatabase db) throws Exception {
        start(db);
        ScheduledJob job = job(TestDatabase.uniqueName("fails-at-shutdown"));
        Handle handle = claim(job);
        recording.behave(context -> {
            windDownUntil(() -> context.cancellation().isCancelled());
            throw new IllegalStateException("disk full"); // its own failure, not the shutdown
        });

        CompletableFuture<Instant> ended = runInBackground(job, handle);
        rounds.cancel("shutting down");
        ended.get(10, TimeUnit.SECONDS);

        assertEquals(Outcome.FAILED, outcome.get());
        assertEquals("disk full", endError(job));
        LeaseRow row = row(job);
        assertEquals(0, row.unfinishedSlotMs(), "finished, not left for a rerun: " + row);
        assertFalse(row.held(), "the name is given back: " + row);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aFailureOfItsOwnThatRacesALossRanToItsEndAndIsNeverRerun(TestDatabase db) throws Exception {
        start(db);
        ScheduledJob job = job(TestDatabase.uniqueName("fails-at-loss"));
        Handle handle = claim(job);
        recording.behave(context -> {
            windDownUntil(() -> context.cancellation().isCancelled());
            throw new IllegalStateException("disk full");
        });

        CompletableFuture<Instant> ended = runInBackground(job, handle);
        db.expire(job.leaseName()); // the next renewal finds the lease gone
        ended.get(10, TimeUnit.SECONDS);

        assertTrue(handle.lost());
        assertEquals(Outcome.FAILED, outcome.get());
        assertEquals(0, row(job).unfinishedSlotMs(), "its end is recorded without the lease: " + row(job));
        assertTrue(leases.slots().unfinishedSlots(List.of(job.leaseName())).isEmpty(), "never rerun");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundLosingItsLeaseWhileWindingDownFromAShutdownNamesTheLoss(TestDatabase db) throws Exception {
        start(db);
        ScheduledJob job = job(TestDatabase.uniqueName("shutdown-then-lost"));
        Handle handle = claim(job);
        recording.behave(context -> {
            windDownUntil(handle::lost);
            throw new InterruptedException("stopped"); // the interruption: the round is cut short
        });

        CompletableFuture<Instant> ended = runInBackground(job, handle);
        rounds.cancel("shutting down");
        db.expire(job.leaseName());
        ended.get(10, TimeUnit.SECONDS);

        assertEquals(Outcome.CUT_SHORT, outcome.get());
        String error = endError(job);
        assertTrue(error.contains("lost") && !error.contains("shutting down"), "the end names the loss: " + error);
        assertEquals(handle.slot().orElseThrow().toEpochMilli(), row(job).unfinishedSlotMs(), "left for a rerun");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundCutShortByALossDoesNotGiveBackTheLeaseItKnowsLost(TestDatabase db) throws Exception {
        // The database stops answering: the lease is lost at the local deadline while the row still
        // counts it held. The work's stop brings the database back, so a release would land.
        Outage outage = new Outage(db.pool(4));
        start(WIDE_GAP, outage.dataSource());
        ScheduledJob job = job(TestDatabase.uniqueName("lost-no-release"));
        Handle handle = claim(job);
        recording.behave(context -> {
            outage.down();
            windDownUntil(() -> context.cancellation().isCancelled());
            outage.up();
            throw new InterruptedException("stopped");
        });

        runInBackground(job, handle).get(20, TimeUnit.SECONDS);

        assertTrue(handle.lost());
        assertEquals(Outcome.CUT_SHORT, outcome.get());
        LeaseRow row = row(job);
        assertTrue(row.held(), "not given back, left to expire: " + row);
        assertEquals(handle.holder(), row.holder());
        assertEquals(handle.slot().orElseThrow().toEpochMilli(), row.unfinishedSlotMs(), "left for a rerun");
    }
}
