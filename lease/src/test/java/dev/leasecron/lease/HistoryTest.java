package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.sql.HistoryClaim;
import dev.leasecron.lease.sql.HistoryCompletion;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import dev.leasecron.lease.testing.TestTimings;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The round history written on the round's path, read back, and purged, on every database. */
class HistoryTest {
    private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant T2 = T1.plusSeconds(60);

    private static List<HistoryEntry> rows(Leases leases, String name) {
        return leases.history().entries(HistoryQuery.latest(List.of(name), 100));
    }

    /** The rows of {@code name} once there are {@code count}: a claim's row is written off the claim's thread. */
    private static List<HistoryEntry> rows(Leases leases, String name, int count) {
        return await().until(() -> rows(leases, name), r -> r.size() == count);
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundsRowIsWrittenWithItsClaimAndCompletedWithItsFinish(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String ok = uniqueName("history-ok");
        String failed = uniqueName("history-failed");
        String timedOut = uniqueName("history-timeout");
        BatchResult<String, Optional<Handle>> claimed = leases.slots().claimSlots(T1, List.of(ok, failed, timedOut));

        HistoryEntry running = rows(leases, ok, 1).getFirst();
        assertEquals(HistoryOutcome.RUNNING, running.outcome());
        assertEquals(Optional.of(HistoryTrigger.SCHEDULED), running.trigger());
        assertEquals(T1, running.instant());
        assertEquals(1, running.instants());
        assertEquals("test", running.instance().substring(0, 4));
        assertTrue(running.started().isPresent() && running.ended().isEmpty() && running.duration().isEmpty());
        assertTrue(running.fireDelay().orElseThrow().compareTo(Duration.ZERO) > 0, "claimed long after T1");

        Map<Handle, Instant> passed = new LinkedHashMap<>();
        claimed.answered().values().forEach(h -> passed.put(h.orElseThrow(), T1));
        String longError = "boom ".repeat(2000) + "é";
        Map<Handle, RoundEnd> ends = Map.of(
                claimed.get(failed).orElseThrow(), new RoundEnd(HistoryOutcome.FAILED, longError),
                claimed.get(timedOut).orElseThrow(), new RoundEnd(HistoryOutcome.TIMEOUT, "ran past\0 1s"));
        assertTrue(leases.batches().finishAll(passed, ends).answered().values().stream().allMatch(b -> b));

        HistoryEntry done = rows(leases, ok).getFirst();
        assertEquals(HistoryOutcome.OK, done.outcome());
        assertTrue(done.ended().isPresent() && done.duration().isPresent());
        assertEquals("", done.detail());
        HistoryEntry f = rows(leases, failed).getFirst();
        assertEquals(HistoryOutcome.FAILED, f.outcome());
        assertTrue(f.detail().startsWith("boom boom") && f.detail().endsWith("[...cut]"), "bounded with a marker");
        assertTrue(f.detail().getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 4096);
        assertEquals(HistoryOutcome.TIMEOUT, rows(leases, timedOut).getFirst().outcome());
        assertEquals("ran past 1s", rows(leases, timedOut).getFirst().detail(), "NUL, which PostgreSQL refuses, dropped");

        Map<String, HistoryEntry> last = leases.history().lastEnded(List.of(ok, failed, uniqueName("history-none")));
        assertEquals(Set.of(ok, failed), last.keySet());
        assertEquals(HistoryOutcome.FAILED, last.get(failed).outcome());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundsEndThatOvertakesItsClaimsRowWritesTheWholeRowWhichTheClaimsRowThenLeaves(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("history-overtaken");
        long started = T1.toEpochMilli() + 250;
        HistoryClaim claim = new HistoryClaim(name, T1.toEpochMilli(), 7, "holder-1", "test-a",
                HistoryTrigger.CATCH_UP.label(), false, started);
        leases.store().history().complete(List.of(new HistoryCompletion(claim, HistoryOutcome.FAILED.label(), "exit 3")));
        leases.store().history().insertClaims(List.of(claim));

        HistoryEntry row = rows(leases, name).getFirst();
        assertEquals(HistoryOutcome.FAILED, row.outcome(), "the late claim's row did not put it back to running");
        assertEquals("exit 3", row.detail());
        assertEquals(Optional.of(HistoryTrigger.CATCH_UP), row.trigger());
        assertEquals(7, row.term());
        assertEquals("test-a", row.instance());
        assertEquals(Optional.of(Instant.ofEpochMilli(started)), row.started());
        assertEquals(Optional.of(Duration.ofMillis(250)), row.fireDelay());
        assertTrue(row.ended().isPresent() && row.duration().isPresent());

        leases.store().history().complete(List.of(new HistoryCompletion(claim, HistoryOutcome.OK.label(), "")));
        assertEquals(HistoryOutcome.FAILED, rows(leases, name).getFirst().outcome(), "a row is completed once");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aReleasedRoundIsCutShortAndItsRerunHasARowOfItsOwn(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("history-release");
        Handle h = leases.slots().claimSlots(T1, List.of(name)).get(name).orElseThrow();
        rows(leases, name, 1);
        leases.batches().releaseAll(Map.of(h, "the replica shut down"));
        HistoryEntry cut = rows(leases, name).getFirst();
        assertEquals(HistoryOutcome.CUT_SHORT, cut.outcome());
        assertEquals("the replica shut down", cut.detail());
        assertTrue(cut.ended().isPresent());

        Handle rerun = leases.slots().claimRerun(leases.slots().unfinishedSlots(List.of(name)).getFirst()).orElseThrow();
        List<HistoryEntry> both = rows(leases, name, 2);
        assertEquals(2, both.size());
        assertTrue(both.getFirst().rerun(), "the rerun's row first: the same instant, a later term");
        assertEquals(Optional.of(HistoryTrigger.RERUN), both.getFirst().trigger());
        assertEquals(HistoryOutcome.RUNNING, both.getFirst().outcome());
        assertEquals("the replica shut down", both.get(1).detail(), "the release's reason stays");
        leases.batches().finishAll(Map.of(rerun, T1), Map.of());
        assertEquals(HistoryOutcome.OK, rows(leases, name).getFirst().outcome());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aReplicaThatDiesMidRoundLeavesARowItsRerunCompletes(TestDatabase db) throws Exception {
        Leases dead = db.leases(TestTimings.FAST);
        Leases survivor = db.leases(TestTimings.FAST);
        String name = uniqueName("history-died");
        dead.slots().claimSlots(T1, List.of(name)).get(name).orElseThrow();
        assertEquals(HistoryOutcome.RUNNING, rows(survivor, name, 1).getFirst().outcome());
        db.expire(name); // never renewed, never finished: its replica died

        Handle rerun = survivor.slots().claimRerun(survivor.slots().unfinishedSlots(List.of(name)).getFirst()).orElseThrow();
        List<HistoryEntry> both = rows(survivor, name, 2);
        assertEquals(2, both.size());
        assertEquals(HistoryOutcome.RUNNING, both.getFirst().outcome());
        assertTrue(both.getFirst().rerun());
        HistoryEntry died = both.get(1);
        assertEquals(HistoryOutcome.CUT_SHORT, died.outcome());
        assertFalse(died.rerun());
        assertTrue(died.detail().contains("stopped before the round ended"));
        assertTrue(died.ended().isEmpty(), "its end is not known");
        survivor.batches().finishAll(Map.of(rerun, T1), Map.of());
        assertEquals(HistoryOutcome.OK, rows(survivor, name).getFirst().outcome());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRerunWritesTheDeadRoundsRowWhenItsClaimLeftNone(TestDatabase db) throws Exception {
        Leases dead = db.leases(TestTimings.FAST);
        dead.keepHistory(false);
        Leases survivor = db.leases(TestTimings.FAST);
        String name = uniqueName("history-died-unrecorded");
        dead.slots().claimSlots(T1, List.of(name)).get(name).orElseThrow();
        assertTrue(rows(survivor, name).isEmpty(), "history off writes nothing");
        db.expire(name);
        survivor.slots().claimRerun(survivor.slots().unfinishedSlots(List.of(name)).getFirst()).orElseThrow();
        List<HistoryEntry> both = rows(survivor, name, 2);
        assertEquals(List.of(HistoryOutcome.RUNNING, HistoryOutcome.CUT_SHORT), both.stream().map(HistoryEntry::outcome).toList());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void spansNotRunAreOneRowEachAndRecordedOnce(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        Leases other = db.leases(TestTimings.FAST);
        String name = uniqueName("history-spans");
        Instant first = T1.plusSeconds(1);
        Instant last = T1.plusSeconds(3600);
        NotRun missed = new NotRun(name, first, last, 3600, HistoryOutcome.MISSED, "no replica claimed them");
        leases.history().recordNotRun(List.of(missed,
                new NotRun(name, T2.plusSeconds(7200), T2.plusSeconds(7200), 1, HistoryOutcome.SKIPPED, "overrun")));
        other.history().recordNotRun(List.of(missed)); // noticed by a second replica too
        List<HistoryEntry> spans = rows(leases, name);
        assertEquals(2, spans.size());
        HistoryEntry m = spans.get(1);
        assertEquals(HistoryOutcome.MISSED, m.outcome());
        assertEquals(first, m.instant());
        assertEquals(last, m.lastInstant());
        assertEquals(3600, m.instants());
        assertEquals("no replica claimed them", m.detail());
        assertTrue(m.trigger().isEmpty() && m.started().isEmpty());
        assertEquals(HistoryOutcome.SKIPPED, spans.getFirst().outcome());

        assertEquals(1, leases.history().entries(new HistoryQuery(Set.of(name), Set.of(HistoryOutcome.SKIPPED),
                Optional.empty(), 10)).size());
        assertEquals(1, leases.history().entries(new HistoryQuery(Set.of(name), Set.of(),
                Optional.of(T2), 10)).size());
        assertEquals(1, leases.history().entries(HistoryQuery.latest(List.of(name), 1)).size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"}) // MySQL and MariaDB have no partial index
    void theIndexOfRunningRowsAnOlderBuildMadeIsDroppedAtStart(String kind) throws Exception {
        TestDatabase db = TestDatabases.of(kind);
        db.leases(TestTimings.FAST);
        db.execute("CREATE INDEX IF NOT EXISTS gst_history_running ON gst_history (name) WHERE outcome = 'running'");
        db.leases(TestTimings.FAST);
        assertThrows(SQLException.class, () -> db.execute("DROP INDEX gst_history_running"), "dropped already");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aFailingHistoryStatementNeverFailsTheFinishOrTheRelease(TestDatabase db) throws Exception {
        List<LeaseDatabaseException> failures = new CopyOnWriteArrayList<>();
        Leases leases = db.leases(TestTimings.FAST, db.pool(4), new LeaseListener() {
            @Override
            public void historyFailed(LeaseDatabaseException cause) {
                failures.add(cause);
            }
        });
        String finished = uniqueName("history-broken-finish");
        String released = uniqueName("history-broken-release");
        BatchResult<String, Optional<Handle>> claimed = leases.slots().claimSlots(T1, List.of(finished, released));
        rows(leases, finished, 1);
        rows(leases, released, 1);
        db.execute("DROP TABLE gst_history");
        try {
            Handle f = claimed.get(finished).orElseThrow();
            BatchResult<Handle, Boolean> finish = leases.batches().finishAll(Map.of(f, T2),
                    Map.of(f, new RoundEnd(HistoryOutcome.FAILED, "x")));
            assertEquals(Map.of(f, true), finish.answered(), "finished under its lease all the same");
            assertTrue(finish.failed().isEmpty());
            Handle r = claimed.get(released).orElseThrow();
            assertEquals(Map.of(r, true), leases.batches().releaseAll(Map.of(r, "shutdown")).answered());
            assertEquals(2, failures.size(), "one report per statement");
            Map<String, LeaseRow> rows = new LinkedHashMap<>();
            leases.views().rows(List.of(finished, released)).forEach(row -> rows.put(row.name(), row));
            assertEquals(0, rows.get(finished).unfinishedSlotMs(), "the finish is recorded");
            assertEquals(T2.toEpochMilli(), rows.get(finished).slotMs(), "and took its passed instant along");
            assertEquals(0, rows.get(finished).expiresAtMs());
            assertEquals(0, rows.get(released).expiresAtMs(), "the release gave the name back");
            // Claims and spans with the table gone: reported, not thrown.
            leases.slots().claimSlots(T2, List.of(uniqueName("history-broken-claim")));
            leases.history().recordNotRun(List.of(new NotRun(finished, T2, T2, 1, HistoryOutcome.MISSED, "")));
            await().until(failures::size, n -> n == 4);
        } finally {
            db.leases(TestTimings.FAST); // creates the table again for the other tests
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void thePurgeDeletesByAgeAndBeyondTheCapInBoundedBatches(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String old = uniqueName("history-purge-old");
        String many = uniqueName("history-purge-many");
        Instant now = leases.readDatabaseClock();
        List<NotRun> spans = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            spans.add(new NotRun(old, now.minus(Duration.ofDays(30)).plusSeconds(i), now.minus(Duration.ofDays(30)).plusSeconds(i),
                    1, HistoryOutcome.MISSED, ""));
        }
        for (int i = 0; i < 7; i++) {
            spans.add(new NotRun(many, now.minusSeconds(100 - i), now.minusSeconds(100 - i), 1, HistoryOutcome.MISSED, ""));
        }
        leases.history().recordNotRun(spans);
        String longRound = uniqueName("history-purge-running");
        Handle running = leases.slots().claimSlot(longRound, now.minus(Duration.ofDays(30))).orElseThrow();
        rows(leases, longRound, 1);

        // Other tests' old rows may be purged with these: count only what is left of ours.
        int deleted;
        do {
            deleted = leases.history().purgeOlderThan(Duration.ofDays(14), 2);
            assertTrue(deleted <= 2, "at most a batch per statement");
        } while (deleted == 2);
        assertTrue(rows(leases, old).isEmpty());
        assertEquals(7, rows(leases, many).size(), "recent rows stay");
        assertEquals(HistoryOutcome.RUNNING, rows(leases, longRound).getFirst().outcome(),
                "a round running longer than the retention keeps its row");
        leases.batches().finishAll(Map.of(running, now.minus(Duration.ofDays(30))), Map.of());
        assertEquals(HistoryOutcome.OK, rows(leases, longRound).getFirst().outcome(), "its end finds its row");

        assertTrue(leases.history().namesOver(3, 1000).contains(many));
        assertEquals(2, leases.history().purgeBeyond(many, 3, 2));
        assertEquals(2, leases.history().purgeBeyond(many, 3, 2));
        assertEquals(0, leases.history().purgeBeyond(many, 3, 2));
        List<HistoryEntry> kept = rows(leases, many);
        assertEquals(3, kept.size());
        assertEquals(now.minusSeconds(94), kept.getFirst().instant(), "the newest kept");
        assertEquals(now.minusSeconds(96), kept.getLast().instant());
    }
}
