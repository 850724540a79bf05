package dev.leasecron.app.scheduler;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.app.logging.Events;
import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryQuery;
import dev.leasecron.lease.HistoryTrigger;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Suspend and resume, played out by in-process replicas on each database: a suspended job's instants
 * are still claimed, once each, and recorded {@code suspended} by the replica that won each; a round in
 * flight runs to its end; after the resume the next instant runs.
 */
class SuspendTest {
    private static final Duration SECOND = Duration.ofSeconds(1);
    /** A suspension is honoured within one renew interval; an instant claimed just before may still run. */
    private static final Duration HONOURED_WITHIN = TestTimings.FAST.renewInterval().plus(SECOND);

    private static ScheduledJob job(String name, RecordingJob job, String replica, boolean clusterWide) {
        return job(name, job, replica, clusterWide, true);
    }

    private static ScheduledJob job(String name, RecordingJob job, String replica, boolean clusterWide, boolean catchUp) {
        return new ScheduledJob(name, "cron:" + name, new EveryPeriod(SECOND), job.type(), job, Map.of("replica", replica),
                Duration.ofMinutes(1), catchUp, clusterWide);
    }

    private static List<HistoryEntry> history(Leases leases, String name, HistoryOutcome outcome) {
        return leases.history().entries(HistoryQuery.latest(List.of("cron:" + name), 1000)).stream()
                .filter(e -> e.outcome() == outcome).toList();
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void suspendedInstantsAreClaimedOnceAndRecordedSuspendedThenResumeRunsTheNext(TestDatabase db) throws Exception {
        String name = uniqueName("suspend");
        RecordingJob job = new RecordingJob();
        Leases operator = db.leases(TestTimings.FAST);
        Instant suspendedAt;
        Instant resumedAt;
        try (LogCapture log = LogCapture.start();
                // catchUp: none, so nothing suspended runs on resume (see onResumeTheLatestSuspendedInstant...).
                Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a", true, false));
                Replica b = new Replica(db, TestTimings.FAST).start(job(name, job, "b", true, false))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds().size() >= 2);

            suspendedAt = operator.readDatabaseClock();
            assertTrue(operator.controls().suspend("cron:" + name, "test:alice", "db migration"));
            await().atMost(Duration.ofSeconds(15)).until(() -> history(operator, name, HistoryOutcome.SUSPENDED).size() >= 3);

            resumedAt = operator.readDatabaseClock();
            assertTrue(operator.controls().resume("cron:" + name));
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds(r -> r.instant().isAfter(resumedAt)).size() >= 2);
            a.close();
            b.close();

            List<HistoryEntry> suspended = history(operator, name, HistoryOutcome.SUSPENDED);
            long recorded = suspended.stream().mapToLong(HistoryEntry::instants).sum();
            long logged = log.of(Events.INSTANT_SUSPENDED, name).stream()
                    .mapToLong(e -> 1 + Long.parseLong(LogCapture.kv(e, "taken_along"))).sum();
            long heard = java.util.stream.Stream.concat(a.events("suspended ").stream(), b.events("suspended ").stream())
                    .mapToLong(e -> Long.parseLong(e.substring(e.lastIndexOf(' ') + 1))).sum();
            assertEquals(recorded, logged, "each suspended instant logged once, by the replica that claimed it");
            assertEquals(recorded, heard);
            for (HistoryEntry e : suspended) {
                assertEquals("suspended by test:alice: db migration", e.detail());
                assertTrue(e.instant().isAfter(suspendedAt), "suspended after the suspension: " + e.instant());
                assertTrue(!e.instant().isAfter(resumedAt.plus(HONOURED_WITHIN)), "not after the resume: " + e.instant());
            }
        }

        Instant from = suspendedAt.plus(HONOURED_WITHIN);
        List<RecordingJob.Round> ranWhileSuspended = job.rounds(r -> r.instant().isAfter(from) && r.instant().isBefore(resumedAt));
        assertEquals(List.of(), ranWhileSuspended, "no round ran while suspended");

        // Every instant from the first to the last is on record exactly once: ran, suspended, or skipped by an overrun.
        Map<Instant, Long> perInstant = operator.history().entries(HistoryQuery.latest(List.of("cron:" + name), 1000)).stream()
                .flatMap(e -> java.util.stream.Stream.iterate(e.instant(), t -> !t.isAfter(e.lastInstant()), t -> t.plus(SECOND)))
                .collect(Collectors.groupingBy(t -> t, TreeMap::new, Collectors.counting()));
        assertTrue(perInstant.values().stream().allMatch(n -> n == 1), "each instant once: " + perInstant);
        List<Instant> instants = List.copyOf(perInstant.keySet());
        for (int i = 1; i < instants.size(); i++) {
            assertEquals(instants.get(i - 1).plus(SECOND), instants.get(i), "no instant missing: " + instants);
        }
        assertTrue(history(operator, name, HistoryOutcome.MISSED).isEmpty(), "nothing missed");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundInFlightWhenSuspendedRunsToItsEndAndTheNextInstantDoesNotRun(TestDatabase db) throws Exception {
        String slow = uniqueName("suspend-inflight");
        String witness = uniqueName("suspend-witness");
        RecordingJob job = new RecordingJob();
        CountDownLatch release = new CountDownLatch(1);
        job.behave(context -> {
            if (context.jobName().equals(slow)) {
                release.await(30, TimeUnit.SECONDS);
            }
        });
        Leases operator = db.leases(TestTimings.FAST);
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(slow, job, "a", true), job(witness, job, "a", true))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds(r -> r.job().equals(slow)).size() == 1);

            assertTrue(operator.controls().suspend("cron:" + slow, "test:bob", ""));
            assertTrue(operator.controls().suspend("cron:" + witness, "test:bob", ""));
            // The witness's instants recorded suspended: this replica has read the suspension by now.
            await().atMost(Duration.ofSeconds(10)).until(() -> !history(operator, witness, HistoryOutcome.SUSPENDED).isEmpty());
            release.countDown();

            await().atMost(Duration.ofSeconds(10)).until(() -> a.events("ended " + slow).size() == 1);
            assertEquals(List.of("ended " + slow + " ok"), a.events("ended " + slow), "the round ran to its end");
            await().atMost(Duration.ofSeconds(10)).until(() -> !history(operator, slow, HistoryOutcome.SUSPENDED).isEmpty());
        }
        assertEquals(1, job.rounds(r -> r.job().equals(slow)).size(), "only the round in flight ran");
        assertEquals(1, history(operator, slow, HistoryOutcome.OK).size());
        Instant ran = history(operator, slow, HistoryOutcome.OK).getFirst().instant();
        assertTrue(history(operator, slow, HistoryOutcome.SUSPENDED).stream().allMatch(e -> e.instant().isAfter(ran)));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aJobOfEveryReplicaSuspendedRunsOnNoReplicaUntilResumed(TestDatabase db) throws Exception {
        String name = uniqueName("suspend-local");
        RecordingJob job = new RecordingJob();
        Leases operator = db.leases(TestTimings.FAST);
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a", false));
                Replica b = new Replica(db, TestTimings.FAST).start(job(name, job, "b", false))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds(r -> r.replica().equals("b")).size() >= 1);

            Instant suspendedAt = operator.readDatabaseClock();
            assertTrue(operator.controls().suspend("cron:" + name, "test:carol", "maintenance"));
            await().atMost(Duration.ofSeconds(10)).until(() -> a.events("suspended ").size() >= 2 && b.events("suspended ").size() >= 2);
            Instant from = suspendedAt.plus(HONOURED_WITHIN);
            assertEquals(List.of(), job.rounds(r -> r.instant().isAfter(from)), "no replica ran it");

            Instant resumedAt = operator.readDatabaseClock();
            assertTrue(operator.controls().resume("cron:" + name));
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds(r -> r.instant().isAfter(resumedAt)).stream()
                    .map(RecordingJob.Round::replica).distinct().count() == 2);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aReplicaStartingWhileTheJobIsSuspendedRecordsItsCatchUpSuspended(TestDatabase db) throws Exception {
        String name = uniqueName("suspend-start");
        RecordingJob job = new RecordingJob();
        Leases operator = db.leases(TestTimings.FAST);
        try (Replica first = new Replica(db, TestTimings.FAST).start(job(name, job, "first", true))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds().size() >= 1);
        }
        Instant stopped = operator.readDatabaseClock();
        assertTrue(operator.controls().suspend("cron:" + name, "test:dave", "restore"));
        // An instant passes with no replica up: the next one to start catches it up at once, before any look on its cadence.
        await().atMost(Duration.ofSeconds(5)).until(() -> operator.readDatabaseClock().isAfter(stopped.plus(SECOND).plus(SECOND)));

        try (LogCapture log = LogCapture.start();
                Replica second = new Replica(db, TestTimings.FAST).start(job(name, job, "second", true))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> history(operator, name, HistoryOutcome.SUSPENDED).size() >= 2);
            assertTrue(log.of(Events.INSTANT_CAUGHT_UP, name).isEmpty(), "nothing caught up while suspended");
        }
        assertEquals(List.of(), job.rounds(r -> r.replica().equals("second")), "the starting replica ran nothing");
        assertEquals(Optional.of(HistoryTrigger.CATCH_UP), history(operator, name, HistoryOutcome.SUSPENDED).getLast().trigger(),
                "the catch-up's instant, recorded suspended");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundCutShortBeforeTheSuspensionIsNotRunAgainWhileSuspended(TestDatabase db) throws Exception {
        String name = uniqueName("suspend-rerun");
        RecordingJob job = new RecordingJob();
        job.behave(context -> {
            if (!context.rerun()) {
                Thread.sleep(Duration.ofMinutes(1)); // until the shutdown cuts it short
            }
        });
        Leases operator = db.leases(TestTimings.FAST);
        Replica first = new Replica(db, TestTimings.FAST).start(job(name, job, "first", true));
        await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds().size() == 1);
        Instant cut = job.rounds().getFirst().instant();
        assertTrue(operator.controls().suspend("cron:" + name, "test:erin", ""));
        assertTrue(first.shutdown(Duration.ZERO), "the round winds down once cut short");

        try (Replica second = new Replica(db, TestTimings.FAST).start(job(name, job, "second", true))) {
            // Its rerun is claimed (found by the sweep, or given up for a later claim) and left alone.
            await().atMost(Duration.ofSeconds(10)).until(() -> history(operator, name, HistoryOutcome.SUSPENDED).stream()
                    .anyMatch(e -> e.instant().isAfter(cut)));
        }
        assertEquals(1, job.rounds().size(), "nothing ran again: " + job.rounds());
        assertTrue(job.rounds(RecordingJob.Round::rerun).isEmpty());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void onResumeTheLatestSuspendedInstantRunsOnceWhenTheJobCatchesUp(TestDatabase db) throws Exception {
        String latest = uniqueName("resume-latest");
        String none = uniqueName("resume-none");
        RecordingJob job = new RecordingJob();
        Duration period = Duration.ofSeconds(2);
        Leases operator = db.leases(TestTimings.FAST);
        java.util.function.BiFunction<String, String, ScheduledJob[]> jobs = (replica, unused) -> new ScheduledJob[] {
                new ScheduledJob(latest, "cron:" + latest, new EveryPeriod(period), job.type(), job,
                        Map.of("replica", replica), Duration.ofMinutes(1), true, true),
                new ScheduledJob(none, "cron:" + none, new EveryPeriod(period), job.type(), job,
                        Map.of("replica", replica), Duration.ofMinutes(1), false, true)};
        Instant caughtUp;
        try (LogCapture log = LogCapture.start();
                Replica a = new Replica(db, TestTimings.FAST).start(jobs.apply("a", ""));
                Replica b = new Replica(db, TestTimings.FAST).start(jobs.apply("b", ""))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds(r -> r.job().equals(latest)).size() >= 1
                    && job.rounds(r -> r.job().equals(none)).size() >= 1);
            assertTrue(operator.controls().suspend("cron:" + latest, "test:frank", "catch-up"));
            assertTrue(operator.controls().suspend("cron:" + none, "test:frank", "no catch-up"));
            await().atMost(Duration.ofSeconds(10)).until(() -> !history(operator, latest, HistoryOutcome.SUSPENDED).isEmpty()
                    && !history(operator, none, HistoryOutcome.SUSPENDED).isEmpty());
            // Resumed right after a suspended instant: the next one is most of a period away.
            int seen = history(operator, latest, HistoryOutcome.SUSPENDED).size();
            await().atMost(Duration.ofSeconds(10)).until(() -> history(operator, latest, HistoryOutcome.SUSPENDED).size() > seen);
            caughtUp = history(operator, latest, HistoryOutcome.SUSPENDED).getFirst().instant();
            assertTrue(operator.controls().resume("cron:" + latest));
            assertTrue(operator.controls().resume("cron:" + none));

            await().atMost(Duration.ofSeconds(10)).until(() -> !job.rounds(r -> r.job().equals(latest)
                    && r.instant().equals(caughtUp)).isEmpty());
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds(r -> r.job().equals(latest)
                    && r.instant().isAfter(caughtUp)).size() >= 2);
            assertEquals(1, log.of(Events.INSTANT_CAUGHT_UP, latest).size(), "asked by both replicas, caught up by one");
        }
        assertEquals(1, job.rounds(r -> r.job().equals(latest) && r.instant().equals(caughtUp)).size(), "once");
        HistoryEntry row = operator.history().entries(HistoryQuery.latest(List.of("cron:" + latest), 100)).stream()
                .filter(e -> e.instant().equals(caughtUp) && e.outcome() == HistoryOutcome.OK).findFirst().orElseThrow();
        assertEquals(Optional.of(HistoryTrigger.CATCH_UP), row.trigger());
        Instant firstSuspended = history(operator, none, HistoryOutcome.SUSPENDED).getLast().instant();
        assertEquals(List.of(), job.rounds(r -> r.job().equals(none) && !r.instant().isBefore(firstSuspended)
                        && history(operator, none, HistoryOutcome.SUSPENDED).stream().anyMatch(e -> e.instant().equals(r.instant()))),
                "catchUp: none leaves its suspended instants alone");
    }
}
