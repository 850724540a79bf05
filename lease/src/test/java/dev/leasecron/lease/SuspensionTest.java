package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Suspensions stored on the primary database and read back by every replica, on every database. */
class SuspensionTest {
    private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aSuspensionIsReadByEveryReplicaWithItsAuthorReasonAndDatabaseTime(TestDatabase db) {
        Leases a = db.leases(TestTimings.FAST);
        Leases b = db.leases(TestTimings.FAST);
        String name = uniqueName("suspend");
        String other = uniqueName("suspend-not");
        Instant before = a.readDatabaseClock();

        assertTrue(a.controls().suspend(name, "cli:alice", "db migration"));

        Map<String, Suspension> seen = b.controls().suspensions(List.of(name, other));
        assertEquals(List.of(name), List.copyOf(seen.keySet()), "a name not suspended is absent");
        Suspension s = seen.get(name);
        assertEquals("cli:alice", s.by());
        assertEquals("db migration", s.reason());
        assertFalse(s.since().isBefore(before.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)), s.since() + " vs " + before);
        assertFalse(s.since().isAfter(b.readDatabaseClock()), "by the database clock");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aSecondSuspensionLeavesTheFirstAndAResumeEndsIt(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("suspend-twice");

        assertTrue(leases.controls().suspend(name, "cli:alice", "db migration"));
        assertFalse(leases.controls().suspend(name, "cli:bob", "something else"));
        assertEquals("cli:alice", leases.controls().suspensions(List.of(name)).get(name).by());

        assertTrue(leases.controls().resume(name));
        assertFalse(leases.controls().resume(name), "resumed already");
        assertTrue(leases.controls().suspensions(List.of(name)).isEmpty());
        assertTrue(leases.controls().suspend(name, "cli:bob", null), "suspended anew after the resume");
        assertEquals("", leases.controls().suspensions(List.of(name)).get(name).reason(), "no reason given");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void replicasSuspendingAtOnceLeaveOneSuspension(TestDatabase db) throws Exception {
        String name = uniqueName("suspend-race");
        List<Leases> replicas = List.of(db.leases(TestTimings.FAST), db.leases(TestTimings.FAST), db.leases(TestTimings.FAST));
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> answers = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(replicas.size())) {
            for (int i = 0; i < replicas.size(); i++) {
                Leases l = replicas.get(i);
                String by = "replica-" + i;
                answers.add(threads.submit((Callable<Boolean>) () -> {
                    go.await();
                    return l.controls().suspend(name, by, "race");
                }));
            }
            go.countDown();
            long won = 0;
            for (Future<Boolean> f : answers) {
                won += f.get() ? 1 : 0;
            }
            assertEquals(1, won, "exactly one call suspended it");
        }
        assertEquals(1, replicas.getFirst().controls().suspensions(List.of(name)).size());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aLongAuthorAndReasonAreCutWithAMarker(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("suspend-long");

        assertTrue(leases.controls().suspend(name, "é".repeat(300), "why ".repeat(400)));

        Suspension s = leases.controls().suspensions(List.of(name)).get(name);
        assertTrue(s.by().endsWith("[...cut]") && s.by().getBytes(StandardCharsets.UTF_8).length <= 191, s.by());
        assertTrue(s.reason().startsWith("why why") && s.reason().endsWith("[...cut]"), s.reason());
        assertTrue(s.reason().getBytes(StandardCharsets.UTF_8).length <= 500);
        assertThrows(IllegalArgumentException.class, () -> leases.controls().suspend("x".repeat(192), "a", "b"),
                "a name the lease table cannot hold never reaches it");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aSuspendedInstantFinishedAtOnceIsRecordedSuspendedAndIsNoLastRound(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("suspend-history");
        Handle h = leases.slots().claimSlot(name, T1).orElseThrow();

        BatchResult<Handle, Boolean> finished = leases.batches().finishAll(Map.of(h, T1),
                Map.of(h, new RoundEnd(HistoryOutcome.SUSPENDED, "suspended by cli:alice: db migration")));

        assertEquals(Map.of(h, true), finished.answered());
        HistoryEntry row = leases.history().entries(HistoryQuery.latest(List.of(name), 10)).getFirst();
        assertEquals(HistoryOutcome.SUSPENDED, row.outcome());
        assertEquals(h.term(), row.term(), "the claim's own row, by the replica that claimed it");
        assertEquals("suspended by cli:alice: db migration", row.detail());
        assertTrue(row.ended().isPresent());
        assertTrue(leases.history().lastEnded(List.of(name)).isEmpty(), "no round ran");
        assertEquals(T1, leases.slots().lastSlot(name).orElseThrow(), "on record: no later claim takes it again");
        assertTrue(leases.slots().claimSlot(name, T1).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> new RoundEnd(HistoryOutcome.MISSED, ""));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aDatabaseWithoutTheTableHasNoSuspensions(TestDatabase db) throws Exception {
        Leases leases = db.leases(TestTimings.FAST);
        // Drops it as a database never started by this version would lack it; another test's rows go with it.
        db.execute("DROP TABLE gst_suspensions");
        try {
            String name = uniqueName("suspend-no-table");
            assertTrue(leases.controls().suspensions(List.of(name)).isEmpty());
            assertFalse(leases.controls().resume(name));
            assertTrue(leases.controls().suspend(name, "cli:alice", ""), "the suspension creates it");
            assertEquals(1, leases.controls().suspensions(List.of(name)).size());
        } finally {
            db.leases(TestTimings.FAST); // as a replica starting would: the table is there for the others
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void theLastInstantIsClaimedAgainOnceForACatchUp(TestDatabase db) {
        Leases a = db.leases(TestTimings.FAST);
        Leases b = db.leases(TestTimings.FAST);
        String name = uniqueName("suspend-catch-up");
        Instant t2 = T1.plusSeconds(60);
        Handle suspended = a.slots().claimSlot(name, T1).orElseThrow();
        assertTrue(a.slots().claimLastAgain(name, T1).isEmpty(), "held by its claim");
        a.batches().finishAll(Map.of(suspended, T1), Map.of(suspended, new RoundEnd(HistoryOutcome.SUSPENDED, "")));
        assertTrue(a.slots().claimLastAgain(name, T1.minusSeconds(60)).isEmpty(), "only the last instant on record");

        Handle caughtUp = b.slots().claimLastAgain(name, T1).orElseThrow();
        assertEquals(suspended.term() + 1, caughtUp.term());
        assertEquals(T1, caughtUp.slot().orElseThrow());
        assertFalse(caughtUp.rerun());
        assertTrue(a.slots().claimLastAgain(name, T1).isEmpty(), "held");
        b.batches().finishAll(Map.of(caughtUp, T1));
        assertTrue(a.slots().claimLastAgain(name, T1).isEmpty(), "once: claimed a second time already");
        assertTrue(a.slots().unfinishedSlots(List.of(name), Duration.ZERO).free().isEmpty());

        List<HistoryEntry> rows = a.history().entries(HistoryQuery.latest(List.of(name), 10));
        assertEquals(List.of(HistoryOutcome.OK, HistoryOutcome.SUSPENDED), rows.stream().map(HistoryEntry::outcome).toList());
        assertEquals(java.util.Optional.of(HistoryTrigger.CATCH_UP), rows.getFirst().trigger());

        Handle next = a.slots().claimSlot(name, t2).orElseThrow();
        assertTrue(next.superseded().isEmpty(), "the catch-up ran to its end: nothing given up");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void anInstantCutShortIsNotClaimedAgainForACatchUp(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("suspend-catch-up-cut");
        Handle h = leases.slots().claimSlot(name, T1).orElseThrow();
        leases.batches().releaseAll(List.of(h));
        assertTrue(leases.slots().claimLastAgain(name, T1).isEmpty(), "unfinished: the rerun's to take");
    }
}
