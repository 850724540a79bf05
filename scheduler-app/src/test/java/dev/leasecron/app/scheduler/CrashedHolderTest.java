package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.LogCapture.kv;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryQuery;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A holder that claims an instant and dies keeps the job's name until its lease expires: the instants
 * that come meanwhile are refused everywhere. The rerun of the dead holder's instant takes them along
 * as skipped when it ends, and they stay skipped: never run, never claimable again.
 */
class CrashedHolderTest {
    private static final Duration PERIOD = Duration.ofSeconds(2);
    /**
     * A 4 s lease claimed about a second before an instant X expires about X + 3 s: a second after the
     * claim of X + 2 s, which it refuses, and a second before the claim of X + 4 s, which the rerun
     * sweep has to come before.
     */
    private static final LeaseTimings TIMINGS = new LeaseTimings(Duration.ofMillis(4000), Duration.ofMillis(200),
            Duration.ofMillis(2000), Duration.ofMillis(500));

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void instantsKeptByACrashedHoldersLeaseStaySkipped(TestDatabase db) throws Exception {
        String name = uniqueName("crashed-holder");
        RecordingJob job = new RecordingJob();
        Leases dead = db.leases(TIMINGS);
        // The first statements of a process are slow (class loading): not on the clock below.
        dead.slots().claimSlot(uniqueName("warm-up"), Instant.parse("2026-01-01T00:00:00Z")).orElseThrow().release();

        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TIMINGS, db.pool(4))) {
            replica.start(new ScheduledJob(name, "cron:" + name, new EveryPeriod(PERIOD), job.type(), job,
                    Map.of("replica", "survivor"), Duration.ofMinutes(1), false, true));
            await().atMost(Duration.ofSeconds(15)).until(() -> !replica.events("ended " + name).isEmpty());

            // About a second before an instant, a holder claims it and is never heard of again.
            Handle crashed = await().atMost(PERIOD.multipliedBy(5)).pollInterval(Duration.ofMillis(10))
                    .until(() -> claimAboutASecondAhead(dead, name), Optional::isPresent).orElseThrow();
            Instant cut = crashed.slot().orElseThrow();
            assertTrue(dead.readDatabaseClock().isBefore(cut.minusMillis(500)),
                    "claimed well ahead of the instant (a loaded machine?)");
            Instant kept = cut.plus(PERIOD);

            await().atMost(Duration.ofSeconds(15)).until(() -> !job.rounds(r -> r.instant().isAfter(kept)).isEmpty());
            List<RecordingJob.Round> ofCut = job.rounds(r -> r.instant().equals(cut));
            assertEquals(1, ofCut.size(), "the dead holder's instant runs once more: " + job.rounds());
            assertTrue(ofCut.getFirst().rerun(), "as a rerun: " + job.rounds());

            List<ILoggingEvent> skipped = log.of("instant.skipped", name);
            assertEquals(1, skipped.size(), log.dump(name));
            Instant first = Instant.parse(kv(skipped.getFirst(), "first"));
            Instant last = Instant.parse(kv(skipped.getFirst(), "last"));
            assertEquals(kept, first, "the instant the dead holder's lease kept is logged skipped: " + log.dump(name));
            assertTrue(job.rounds(r -> !r.instant().isBefore(first) && !r.instant().isAfter(last)).isEmpty(),
                    "no skipped instant runs: " + job.rounds());
            assertTrue(log.of("instant.missed", name).isEmpty(), "skipped, not missed: " + log.dump(name));
            assertTrue(log.of("instant.superseded", name).isEmpty(), log.dump(name));

            // It stays skipped: on record, so that any later claim of it is refused.
            assertTrue(!dead.slots().lastSlot("cron:" + name).orElseThrow().isBefore(last), "on record as passed");
            await().atMost(Duration.ofSeconds(5)).until(() -> !dead.views().rows(List.of("cron:" + name)).getFirst().held());
            assertEquals(Optional.empty(), dead.slots().claimSlot("cron:" + name, kept).map(Handle::slot),
                    "a later claim of the skipped instant is refused");
            assertTrue(job.rounds(r -> r.instant().equals(kept)).isEmpty());

            // The history accounts for each of these instants in one place.
            List<HistoryEntry> ofCutRows = dead.history().entries(new HistoryQuery(Set.of("cron:" + name), Set.of(),
                    Optional.of(cut), 100)).stream().filter(e -> e.instant().equals(cut)).toList();
            assertEquals(2, ofCutRows.size(), ofCutRows.toString());
            assertTrue(ofCutRows.getFirst().rerun() && ofCutRows.getFirst().outcome() == HistoryOutcome.OK, ofCutRows.toString());
            assertEquals(HistoryOutcome.CUT_SHORT, ofCutRows.get(1).outcome(), "the dead round's row, completed by its rerun");
            assertTrue(ofCutRows.get(1).detail().contains("stopped before the round ended"), ofCutRows.toString());
            HistoryEntry skippedRow = await().atMost(Duration.ofSeconds(5)).until(() -> dead.history().entries(
                    new HistoryQuery(Set.of("cron:" + name), Set.of(HistoryOutcome.SKIPPED), Optional.empty(), 10)),
                    rows -> rows.size() == 1).getFirst();
            assertEquals(first, skippedRow.instant());
            assertEquals(last, skippedRow.lastInstant());
            assertEquals(Long.parseLong(kv(skipped.getFirst(), "count")), skippedRow.instants());
        }
    }

    /** Claims the next instant when it is 0.9 to 1.1 s away by the database clock; empty otherwise. */
    private static Optional<Handle> claimAboutASecondAhead(Leases leases, String name) {
        Instant now = leases.readDatabaseClock();
        long intoPeriod = now.toEpochMilli() % PERIOD.toMillis();
        if (intoPeriod < 900 || intoPeriod > 1100) {
            return Optional.empty();
        }
        return leases.slots().claimSlot("cron:" + name, new EveryPeriod(PERIOD).next(now).orElseThrow());
    }
}
