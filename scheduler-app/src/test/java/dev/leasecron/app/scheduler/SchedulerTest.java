package dev.leasecron.app.scheduler;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/** The scheduler's promises, played out by in-process replicas on each database. */
class SchedulerTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    private static ScheduledJob job(String name, RecordingJob job, String replica, boolean catchUp, Duration timeout) {
        return new ScheduledJob(name, "cron:" + name, new EveryPeriod(SECOND), job.type(), job,
                Map.of("replica", replica), timeout, catchUp, true);
    }

    private static ScheduledJob job(String name, RecordingJob job, String replica) {
        return job(name, job, replica, true, Duration.ofMinutes(1));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void everyInstantRunsOnceAcrossThreeReplicas(TestDatabase db) throws Exception {
        String name = uniqueName("every");
        RecordingJob job = new RecordingJob();
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a"));
                Replica b = new Replica(db, TestTimings.FAST).start(job(name, job, "b"));
                Replica c = new Replica(db, TestTimings.FAST).start(job(name, job, "c"))) {
            await().atMost(Duration.ofSeconds(20)).until(() -> job.rounds().size() >= 6);
        }
        List<RecordingJob.Round> rounds = job.rounds();
        Map<Instant, Long> perInstant = rounds.stream()
                .collect(Collectors.groupingBy(RecordingJob.Round::instant, TreeMap::new, Collectors.counting()));
        assertTrue(perInstant.values().stream().allMatch(n -> n == 1), "each instant once: " + perInstant);
        List<Instant> instants = List.copyOf(perInstant.keySet());
        for (int i = 1; i < instants.size(); i++) {
            assertEquals(instants.get(i - 1).plus(SECOND), instants.get(i), "no instant missing: " + instants);
        }
        assertTrue(rounds.stream().noneMatch(RecordingJob.Round::rerun));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void manyJobsDueTogetherRunEachInstantOnceAcrossThreeReplicas(TestDatabase db) throws Exception {
        // The jobs due at one instant share their claims and finishes: batches across three replicas.
        int jobs = 40;
        RecordingJob job = new RecordingJob();
        List<String> names = java.util.stream.IntStream.range(0, jobs).mapToObj(i -> uniqueName("many")).toList();
        ScheduledJob[] onA = names.stream().map(n -> job(n, job, "a")).toArray(ScheduledJob[]::new);
        ScheduledJob[] onB = names.stream().map(n -> job(n, job, "b")).toArray(ScheduledJob[]::new);
        ScheduledJob[] onC = names.stream().map(n -> job(n, job, "c")).toArray(ScheduledJob[]::new);
        List<String> events = new java.util.ArrayList<>();
        try (Replica a = new Replica(db, TestTimings.FAST).start(onA);
                Replica b = new Replica(db, TestTimings.FAST).start(onB);
                Replica c = new Replica(db, TestTimings.FAST).start(onC)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> names.stream()
                    .allMatch(n -> job.rounds(r -> r.job().equals(n)).size() >= 3));
            a.close();
            b.close();
            c.close();
            List.of(a, b, c).forEach(r -> events.addAll(r.events));
        }
        for (String n : names) {
            Map<Instant, Long> perInstant = job.rounds(r -> r.job().equals(n)).stream()
                    .collect(Collectors.groupingBy(RecordingJob.Round::instant, TreeMap::new, Collectors.counting()));
            assertTrue(perInstant.values().stream().allMatch(k -> k == 1), n + ": each instant once: " + perInstant);
            // On a loaded machine a round can start so late that the next instant has come by its end:
            // that one is skipped, on record and logged. No other instant may go missing.
            List<Instant> instants = List.copyOf(perInstant.keySet());
            long gaps = Duration.between(instants.getFirst(), instants.getLast()).dividedBy(SECOND) + 1 - instants.size();
            long skipped = events.stream().filter(e -> e.startsWith("skipped " + n + " "))
                    .mapToLong(e -> Long.parseLong(e.substring(e.lastIndexOf(' ') + 1))).sum();
            assertTrue(skipped >= gaps, n + ": every instant missing was skipped by an overrun: " + instants
                    + ", skipped " + skipped);
        }
        assertTrue(job.rounds().stream().noneMatch(RecordingJob.Round::rerun));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void roundCutShortByShutdownRunsOnceMoreElsewhere(TestDatabase db) throws Exception {
        String name = uniqueName("cut");
        RecordingJob job = new RecordingJob();
        job.behave(context -> {
            if (!context.rerun()) {
                Thread.sleep(Duration.ofMinutes(1)); // until the shutdown cuts it short
            }
        });
        Replica first = new Replica(db, TestTimings.FAST).start(job(name, job, "first"));
        await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds().size() == 1);
        Instant cut = job.rounds().getFirst().instant();
        assertTrue(first.shutdown(Duration.ZERO), "the round winds down once cut short");
        assertTrue(first.events.contains("ended " + name + " cut_short"));

        job.behave(context -> {});
        try (Replica second = new Replica(db, TestTimings.FAST).start(job(name, job, "second"))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> !job.rounds(r -> r.rerun()).isEmpty());
            RecordingJob.Round rerun = job.rounds(RecordingJob.Round::rerun).getFirst();
            assertEquals(cut, rerun.instant());
            assertEquals("second", rerun.replica());
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                    .until(() -> job.rounds(r -> r.instant().equals(cut)).size() == 2);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void failedRoundIsFinishedAndNeverRerun(TestDatabase db) throws Exception {
        String name = uniqueName("fails");
        RecordingJob job = new RecordingJob();
        job.behave(context -> {
            throw new IllegalStateException("boom");
        });
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a"))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds().size() >= 3);
        }
        Set<Instant> instants = job.rounds().stream().map(RecordingJob.Round::instant).collect(Collectors.toSet());
        assertEquals(job.rounds().size(), instants.size(), "no instant ran twice");
        assertTrue(job.rounds().stream().noneMatch(RecordingJob.Round::rerun));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void roundPastItsTimeoutIsCancelledAndNotRerun(TestDatabase db) throws Exception {
        String name = uniqueName("slow");
        RecordingJob job = new RecordingJob();
        job.behave(context -> Thread.sleep(Duration.ofMinutes(1)));
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a", true, Duration.ofMillis(300)))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> a.events.stream().filter(e -> e.startsWith("ended ")).count() >= 2);
            List<String> ended = a.events.stream().filter(e -> e.startsWith("ended ")).toList();
            assertTrue(ended.stream().allMatch(e -> e.equals("ended " + name + " timeout")), "every round timed out: " + ended);
            Set<Instant> instants = job.rounds().stream().map(RecordingJob.Round::instant).collect(Collectors.toSet());
            assertEquals(job.rounds().size(), instants.size(), "no instant ran twice: " + job.rounds());
            assertTrue(job.rounds().stream().noneMatch(RecordingJob.Round::rerun));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void roundLongerThanItsPeriodSkipsTheInstantsItOverran(TestDatabase db) throws Exception {
        String name = uniqueName("overrun");
        RecordingJob job = new RecordingJob();
        job.behave(context -> {
            if (context.instant().equals(job.rounds().getFirst().instant())) {
                Thread.sleep(Duration.ofMillis(2500));
            }
        });
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a"));
                Replica b = new Replica(db, TestTimings.FAST).start(job(name, job, "b"))) {
            await().atMost(Duration.ofSeconds(15)).until(() -> job.rounds().size() >= 3);
            List<RecordingJob.Round> rounds = job.rounds();
            Instant first = rounds.getFirst().instant();
            Instant second = rounds.get(1).instant();
            assertTrue(!second.isBefore(first.plusSeconds(3)), "the overrun instants never run late: " + rounds);
            String skippedBy = a.events.contains("skipped " + name + " 2") ? "a" : b.events.contains("skipped " + name + " 2") ? "b" : null;
            assertTrue(skippedBy != null, "two instants logged skipped: " + a.events + " " + b.events);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void startCatchesUpOnlyTheMostRecentMissedInstant(TestDatabase db) throws Exception {
        String name = uniqueName("catch-up");
        Leases seed = db.leases(TestTimings.FAST);
        Instant now = seed.readDatabaseClock();
        Instant longAgo = new EveryPeriod(SECOND).latestAtOrBefore(now.minusSeconds(30)).orElseThrow();
        seed.slots().claimSlot("cron:" + name, longAgo).orElseThrow().finish(longAgo);

        RecordingJob job = new RecordingJob();
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a"))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds().size() >= 2);
        }
        List<RecordingJob.Round> rounds = job.rounds();
        Instant caughtUp = rounds.getFirst().instant();
        assertTrue(caughtUp.isAfter(longAgo.plusSeconds(25)), "the most recent missed instant, not an old one: " + caughtUp);
        assertTrue(!caughtUp.isAfter(now.plusSeconds(1)));
        assertEquals(1, rounds.stream().filter(r -> r.instant().isBefore(now)).count(), "only one missed instant runs");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void jobThatNeverRanDoesNotCatchUp(TestDatabase db) throws Exception {
        String name = uniqueName("never");
        RecordingJob job = new RecordingJob();
        try (Replica a = new Replica(db, TestTimings.FAST)) {
            // The instant a catch-up would run lies well before the start, and the next one well after
            // it: however long the start takes (within 3 s), the two cannot be mistaken for each other.
            Instant startedAt = a.leases.readDatabaseClock();
            Instant past = startedAt.minusSeconds(2).truncatedTo(ChronoUnit.SECONDS);
            Instant firstFuture = startedAt.plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
            a.start(new ScheduledJob(name, "cron:" + name, new PastThenEvery(past, firstFuture, SECOND), job.type(), job,
                    Map.of("replica", "a"), Duration.ofMinutes(1), true, true));
            await().atMost(Duration.ofSeconds(10)).until(() -> !job.rounds().isEmpty());
            assertEquals(firstFuture, job.rounds().getFirst().instant(), "the first round is the first future instant");
        }
    }

    /** One instant at {@code past}, then every {@code period} from {@code first} on. */
    private record PastThenEvery(Instant past, Instant first, Duration period) implements Instants {
        @Override
        public Optional<Instant> next(Instant after) {
            if (after.isBefore(past)) {
                return Optional.of(past);
            }
            if (after.isBefore(first)) {
                return Optional.of(first);
            }
            long periods = Duration.between(first, after).toMillis() / period.toMillis() + 1;
            return Optional.of(first.plus(period.multipliedBy(periods)));
        }

        @Override
        public Optional<Instant> latestAtOrBefore(Instant at) {
            if (at.isBefore(past)) {
                return Optional.empty();
            }
            if (at.isBefore(first)) {
                return Optional.of(past);
            }
            long periods = Duration.between(first, at).toMillis() / period.toMillis();
            return Optional.of(first.plus(period.multipliedBy(periods)));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void catchUpNoneLeavesTheMissedInstantOnRecordOnly(TestDatabase db) throws Exception {
        String name = uniqueName("no-catch-up");
        Leases seed = db.leases(TestTimings.FAST);
        Instant now = seed.readDatabaseClock();
        Instant earlier = new EveryPeriod(SECOND).latestAtOrBefore(now.minusSeconds(10)).orElseThrow();
        seed.slots().claimSlot("cron:" + name, earlier).orElseThrow().finish(earlier);

        RecordingJob job = new RecordingJob();
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a", false, Duration.ofMinutes(1)))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> !job.rounds().isEmpty());
        }
        assertFalse(job.rounds().getFirst().instant().isBefore(now), "no missed instant runs");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void replicaStartingDuringPeersOverrunReportsNothingMissed(TestDatabase db) throws Exception {
        String name = uniqueName("joins-overrun");
        // A peer's round, claimed a few instants ago, still holds the lease (15 s) as the replica starts.
        Leases peer = db.leases(LeaseTimings.DEFAULT);
        Instant now = peer.readDatabaseClock();
        Instant overrunning = new EveryPeriod(SECOND).latestAtOrBefore(now.minusSeconds(3)).orElseThrow();
        Handle round = peer.slots().claimSlot("cron:" + name, overrunning).orElseThrow();

        Logger log = (Logger) LoggerFactory.getLogger("leasecron.scheduler");
        ListAppender<ILoggingEvent> entries = new ListAppender<>();
        entries.start();
        log.addAppender(entries);
        RecordingJob job = new RecordingJob();
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a", false, Duration.ofMinutes(1)))) {
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> job.rounds().isEmpty());
            round.finish(a.leases.readDatabaseClock());
            await().atMost(Duration.ofSeconds(10)).until(() -> !job.rounds().isEmpty());
        } finally {
            log.detachAppender(entries);
        }
        List<ILoggingEvent> missed = entries.list.stream()
                .filter(e -> e.getKeyValuePairs() != null && e.getKeyValuePairs().stream()
                        .anyMatch(kv -> kv.key.equals("event") && kv.value.equals("instant.missed")))
                .filter(e -> e.getKeyValuePairs().stream().anyMatch(kv -> kv.key.equals("job") && kv.value.equals(name)))
                .toList();
        assertEquals(List.of(), missed.stream().map(ILoggingEvent::getFormattedMessage).toList(),
                "instants the peer's round overran are its to report as skipped, not missed");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void instantsHeldOverByARoundGivenUpAreLoggedMissed(TestDatabase db) throws Exception {
        String name = uniqueName("held-over");
        Leases seed = db.leases(TestTimings.FAST);
        Instant now = seed.readDatabaseClock();
        Instant cut = new EveryPeriod(SECOND).latestAtOrBefore(now.minusSeconds(5)).orElseThrow();
        // Cut short twice (first round and rerun), so no sweep runs it again: the next claim gives it up.
        seed.slots().claimSlot("cron:" + name, cut).orElseThrow().release();
        seed.slots().claimRerun(seed.slots().unfinishedSlots(List.of("cron:" + name)).getFirst()).orElseThrow().release();

        RecordingJob job = new RecordingJob();
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a", false, Duration.ofMinutes(1)))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> a.events.contains("superseded " + name));
            await().atMost(Duration.ofSeconds(2)).until(() -> a.events.stream()
                    .anyMatch(e -> e.startsWith("missed " + name + " ") && !e.equals("missed " + name + " 0")));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void instantsRefusedWhileARoundHeldTheLeaseThatItsEndDidNotTakeAlongAreLoggedMissed(TestDatabase db)
            throws Exception {
        String name = uniqueName("not-taken-along");
        // A peer's round holds the name for two instants and records its end without taking them along,
        // as a round whose lease was lost does: the claim that passes over them must report them.
        Leases peer = db.leases(TestTimings.FAST);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> peer.readDatabaseClock().toEpochMilli() % 1000 < 300);
        Instant held = new EveryPeriod(SECOND).latestAtOrBefore(peer.readDatabaseClock()).orElseThrow();
        Handle round = peer.slots().claimSlot("cron:" + name, held).orElseThrow();

        RecordingJob job = new RecordingJob();
        try (Replica a = new Replica(db, TestTimings.FAST).start(job(name, job, "a", false, Duration.ofMinutes(1)))) {
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !peer.readDatabaseClock().isBefore(held.plusMillis(2300)));
            round.finish(held);
            await().atMost(Duration.ofSeconds(10)).until(() -> !job.rounds().isEmpty());
            assertEquals(held.plusSeconds(3), job.rounds().getFirst().instant());
            await().atMost(Duration.ofSeconds(2)).until(() -> a.events.contains("missed " + name + " 2"));
            assertTrue(a.events.stream().noneMatch(e -> e.startsWith("skipped " + name + " ")
                    || e.equals("superseded " + name)), a.events.toString());
        }
    }
}
