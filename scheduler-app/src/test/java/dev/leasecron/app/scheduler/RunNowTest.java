package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.LogCapture.kv;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryQuery;
import dev.leasecron.lease.HistoryTrigger;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.RunRequestState;
import dev.leasecron.lease.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Run now through the scheduler, on every database: a request sent to two replicas, or twice, runs
 * once per id; it waits for a scheduled round of the job that runs (and overruns); and an instant
 * of the job that comes while a manual round holds the lease is skipped, logged and in the history,
 * never lost, while the next one runs.
 */
class RunNowTest {
    private static final Duration PERIOD = Duration.ofSeconds(2);
    /** The protocol scaled down: replicas look for requests every 200 ms. */
    private static final LeaseTimings TIMINGS = new LeaseTimings(Duration.ofMillis(4000), Duration.ofMillis(200),
            Duration.ofMillis(2000), Duration.ofMillis(500));

    private static ScheduledJob job(String name, RecordingJob job, Duration period, String replica) {
        return new ScheduledJob(name, "cron:" + name, new EveryPeriod(period), job.type(), job, Map.of("replica", replica),
                Duration.ofMinutes(1), false, true);
    }

    private static RunRequest request(Leases leases, String id) {
        return leases.controls().runRequest(id).orElseThrow();
    }

    private static List<HistoryEntry> history(Leases leases, String name) {
        return leases.history().entries(new HistoryQuery(Set.of("cron:" + name), Set.of(), Optional.empty(), 100));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void twoReplicasReceivingTheSameRequestRunItOncePerId(TestDatabase db) throws Exception {
        String name = uniqueName("run-now-once");
        RecordingJob job = new RecordingJob();
        try (LogCapture log = LogCapture.start();
                Replica a = Replica.over(db, TIMINGS, db.pool(4));
                Replica b = Replica.over(db, TIMINGS, db.pool(4))) {
            // Hourly: no scheduled round comes in the way.
            a.start(job(name, job, Duration.ofHours(1), "a"));
            b.start(job(name, job, Duration.ofHours(1), "b"));
            String once = UUID.randomUUID().toString();
            String other = UUID.randomUUID().toString();
            a.leases.controls().requestRun("cron:" + name, once, "cli:alice");
            b.leases.controls().requestRun("cron:" + name, once, "cli:alice"); // the same request, to the other replica
            a.leases.controls().requestRun("cron:" + name, once, "cli:alice"); // and again
            b.leases.controls().requestRun("cron:" + name, other, "http:bob");

            await().atMost(Duration.ofSeconds(15)).until(() -> request(a.leases, once).state() == RunRequestState.ENDED
                    && request(a.leases, other).state() == RunRequestState.ENDED);
            // Nothing more runs, however long the replicas keep looking.
            await().during(Duration.ofMillis(1000)).atMost(Duration.ofSeconds(3)).until(() -> job.rounds().size() == 2);

            for (String id : List.of(once, other)) {
                RunRequest r = request(a.leases, id);
                assertEquals(Optional.of(HistoryOutcome.OK), r.outcome(), r.toString());
                List<RecordingJob.Round> ran = job.rounds(round -> round.term() == r.term());
                assertEquals(1, ran.size(), "one round per request: " + job.rounds());
                assertEquals(r.requestedAt(), ran.getFirst().instant(), "a manual round's instant is its request's");
                assertFalse(ran.getFirst().rerun());
            }
            List<HistoryEntry> rows = history(a.leases, name);
            assertEquals(2, rows.size(), rows.toString());
            assertTrue(rows.stream().allMatch(e -> e.trigger().equals(Optional.of(HistoryTrigger.MANUAL))
                    && e.outcome() == HistoryOutcome.OK), rows.toString());
            assertEquals(Set.of("cli:alice", "http:bob"), Set.copyOf(rows.stream().map(HistoryEntry::requestedBy).toList()));

            List<ILoggingEvent> starts = log.of("round.start", name);
            assertEquals(2, starts.size(), log.dump(name));
            assertTrue(starts.stream().allMatch(e -> kv(e, "trigger").equals("manual")), log.dump(name));
            assertEquals(Set.of("cli:alice", "http:bob"), Set.copyOf(starts.stream().map(e -> kv(e, "requested_by")).toList()));
            assertTrue(log.of("round.end", name).stream().allMatch(e -> kv(e, "trigger").equals("manual")
                    && kv(e, "outcome").equals("ok")), log.dump(name));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRequestWaitsForTheScheduledRoundThatOverrunsThenRuns(TestDatabase db) throws Exception {
        String name = uniqueName("run-now-waits");
        RecordingJob job = new RecordingJob();
        CountDownLatch scheduledRuns = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Instant> scheduledEnded = new AtomicReference<>();
        AtomicReference<Instant> manualStarted = new AtomicReference<>();
        AtomicReference<String> manualId = new AtomicReference<>("");
        try (LogCapture log = LogCapture.start(); Replica a = Replica.over(db, TIMINGS, db.pool(4))) {
            job.behave(context -> {
                if (!manualId.get().isEmpty() && request(a.leases, manualId.get()).term() == context.term()) {
                    manualStarted.set(Instant.now());
                    return;
                }
                if (scheduledRuns.getCount() > 0) {
                    scheduledRuns.countDown();
                    // Overruns the next instant, until the test lets it go.
                    assertTrue(release.await(30, TimeUnit.SECONDS));
                    scheduledEnded.set(Instant.now());
                }
            });
            a.start(job(name, job, PERIOD, "a"));
            assertTrue(scheduledRuns.await(15, TimeUnit.SECONDS), "a scheduled round started");
            String id = UUID.randomUUID().toString();
            manualId.set(id);
            a.leases.controls().requestRun("cron:" + name, id, "cli:alice");

            // The scheduled round holds the lease past its next instant: the request waits, pending.
            await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(4))
                    .until(() -> request(a.leases, id).state() == RunRequestState.PENDING);
            release.countDown();

            await().atMost(Duration.ofSeconds(15)).until(() -> request(a.leases, id).state() == RunRequestState.ENDED);
            assertEquals(Optional.of(HistoryOutcome.OK), request(a.leases, id).outcome());
            assertTrue(manualStarted.get().isAfter(scheduledEnded.get()), "the manual round ran after the scheduled one");
            assertFalse(log.of("instant.skipped", name).isEmpty(), "the scheduled round's overrun is skipped: " + log.dump(name));
            // The schedule goes on afterwards.
            Instant after = Instant.now();
            await().atMost(Duration.ofSeconds(10)).until(() -> !job.rounds(r -> r.instant().isAfter(after)
                    && r.term() != request(a.leases, id).term()).isEmpty());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void anInstantDueDuringAManualRoundIsSkippedAndRecordedAndTheNextRuns(TestDatabase db) throws Exception {
        String name = uniqueName("run-now-skips");
        RecordingJob job = new RecordingJob();
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<String> manualId = new AtomicReference<>("");
        try (LogCapture log = LogCapture.start();
                Replica a = Replica.over(db, TIMINGS, db.pool(4));
                Replica b = Replica.over(db, TIMINGS, db.pool(4))) {
            job.behave(context -> {
                if (!manualId.get().isEmpty() && request(a.leases, manualId.get()).term() == context.term()) {
                    assertTrue(release.await(30, TimeUnit.SECONDS));
                }
            });
            a.start(job(name, job, PERIOD, "a"));
            b.start(job(name, job, PERIOD, "b"));
            await().atMost(Duration.ofSeconds(15)).until(() -> !job.rounds().isEmpty());

            String id = UUID.randomUUID().toString();
            manualId.set(id);
            a.leases.controls().requestRun("cron:" + name, id, "cli:alice");
            await().atMost(Duration.ofSeconds(10)).until(() -> request(a.leases, id).state() == RunRequestState.RUNNING);
            // An instant comes while the manual round holds the lease: every replica's claim of it is refused.
            Instant due = new EveryPeriod(PERIOD).next(a.leases.readDatabaseClock()).orElseThrow();
            await().atMost(Duration.ofSeconds(5)).until(() -> a.leases.readDatabaseClock().isAfter(due.plusMillis(300)));
            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> request(a.leases, id).state() == RunRequestState.ENDED);

            // It never runs, and is told once: logged skipped, with the manual round as the reason, and in the history.
            Instant next = due.plus(PERIOD);
            await().atMost(Duration.ofSeconds(10)).until(() -> !job.rounds(r -> !r.instant().isBefore(next)
                    && r.term() != request(a.leases, id).term()).isEmpty());
            assertTrue(job.rounds(r -> r.instant().equals(due)).isEmpty(), "the instant held off never runs: " + job.rounds());
            List<ILoggingEvent> skipped = log.of("instant.skipped", name);
            assertEquals(1, skipped.size(), log.dump(name));
            assertEquals(due.toString(), kv(skipped.getFirst(), "first"));
            assertTrue(kv(skipped.getFirst(), "reason").contains("manual"), log.dump(name));
            assertTrue(log.of("instant.missed", name).isEmpty(), log.dump(name));
            assertTrue(!a.leases.slots().lastSlot("cron:" + name).orElseThrow().isBefore(due), "on record as passed");
            HistoryEntry row = await().atMost(Duration.ofSeconds(5)).until(() -> history(a.leases, name).stream()
                    .filter(e -> e.outcome() == HistoryOutcome.SKIPPED).toList(), rows -> rows.size() == 1).getFirst();
            assertEquals(due, row.instant());
            assertTrue(row.detail().contains("manual"), row.detail());
            assertTrue(log.of("round.overrun", name).stream().anyMatch(e -> kv(e, "trigger").isEmpty()
                    && kv(e, "next_instant").equals(due.toString())), "the overrun is logged as it comes: " + log.dump(name));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aManualRoundCutShortByAShutdownEndsCutShortAndIsNotRunAgain(TestDatabase db) throws Exception {
        String name = uniqueName("run-now-cut");
        RecordingJob job = new RecordingJob();
        job.behave(context -> Thread.sleep(30_000)); // until the shutdown's grace runs out
        try (Replica a = Replica.over(db, TIMINGS, db.pool(4)); Replica b = Replica.over(db, TIMINGS, db.pool(4))) {
            a.start(job(name, job, Duration.ofHours(1), "a"));
            String id = UUID.randomUUID().toString();
            a.leases.controls().requestRun("cron:" + name, id, "cli:alice");
            await().atMost(Duration.ofSeconds(10)).until(() -> request(a.leases, id).state() == RunRequestState.RUNNING);
            b.start(job(name, job, Duration.ofHours(1), "b"));

            assertTrue(a.shutdown(Duration.ofMillis(100)), "the manual round winds down once cut short");
            RunRequest ended = request(b.leases, id);
            assertEquals(RunRequestState.ENDED, ended.state());
            assertEquals(Optional.of(HistoryOutcome.CUT_SHORT), ended.outcome());
            assertFalse(b.leases.views().rows(List.of("cron:" + name)).getFirst().held(), "the lease was given back");
            // The other replica keeps looking and runs nothing of it.
            await().during(Duration.ofMillis(1000)).atMost(Duration.ofSeconds(3)).until(() -> job.rounds().size() == 1);
            assertEquals(HistoryOutcome.CUT_SHORT, history(b.leases, name).getFirst().outcome());
        }
    }
}
