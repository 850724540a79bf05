package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Run requests on every database: recorded once per id, claimed by one replica of many with the job's
 * lease, never while a round holds the lease or an instant waits for its rerun, ended with the
 * instants that came meanwhile taken along, and settled cut short when their replica died.
 */
class RunRequestTest {
    private static List<HistoryEntry> rows(Leases leases, String name) {
        return leases.history().entries(HistoryQuery.latest(List.of(name), 100));
    }

    private static Leases replica(TestDatabase db, String instance, LeaseTimings timings) {
        Leases leases = Leases.named(db.pool(4), timings, instance, LeaseListener.NONE);
        leases.initialize();
        return leases;
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRequestIsRecordedOncePerId(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("request-once");
        String id = UUID.randomUUID().toString();

        RunRequest first = leases.controls().requestRun(name, id, "cli:alice");
        RunRequest again = leases.controls().requestRun(name, id, "http:bob");

        assertEquals(RunRequestState.PENDING, first.state());
        assertEquals("cli:alice", first.requestedBy());
        assertEquals(first, again, "the second ask answers with the request on record");
        assertEquals(Optional.of(first), leases.controls().runRequest(id));
        assertEquals(Optional.empty(), leases.controls().runRequest(UUID.randomUUID().toString()));
        assertTrue(first.instance().isEmpty() && first.term() == 0 && first.outcome().isEmpty(), first.toString());
        assertThrows(IllegalArgumentException.class, () -> leases.controls().requestRun(name, " ", "cli:alice"));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void twoReplicasRacingForARequestRunItOnce(TestDatabase db) throws Exception {
        Leases a = replica(db, "replica-a-" + UUID.randomUUID(), TestTimings.FAST);
        Leases b = replica(db, "replica-b-" + UUID.randomUUID(), TestTimings.FAST);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String name = uniqueName("request-race");
            names.add(name);
            a.controls().requestRun(name, UUID.randomUUID().toString(), "cli:alice");
        }
        for (String name : names) {
            // Both see it pending and free, then both claim it at once.
            RunRequest seenByA = a.manualRounds().claimable(List.of(name)).getFirst();
            RunRequest seenByB = b.manualRounds().claimable(List.of(name)).getFirst();
            CyclicBarrier together = new CyclicBarrier(2);
            try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
                Future<Optional<ManualRun>> byA = pool.submit(racing(together, () -> a.manualRounds().claim(seenByA)));
                Future<Optional<ManualRun>> byB = pool.submit(racing(together, () -> b.manualRounds().claim(seenByB)));
                Optional<ManualRun> wonA = byA.get();
                Optional<ManualRun> wonB = byB.get();
                assertEquals(1, (wonA.isPresent() ? 1 : 0) + (wonB.isPresent() ? 1 : 0), "exactly one claim wins: " + wonA + wonB);
                ManualRun won = wonA.or(() -> wonB).orElseThrow();
                RunRequest recorded = a.controls().runRequest(seenByA.id()).orElseThrow();
                assertEquals(RunRequestState.RUNNING, recorded.state());
                assertEquals(Optional.of(won.handle().instance()), recorded.instance());
                assertEquals(won.handle().term(), recorded.term());
                won.end(RoundEnd.OK, Optional.empty(), Optional.empty());
            }
            // The lease free again, the request taken: a claim from the loser's stale read runs nothing.
            assertEquals(Optional.empty(), b.manualRounds().claim(seenByB).map(ManualRun::request));
            assertEquals(Optional.empty(), a.manualRounds().claim(seenByA).map(ManualRun::request));
            assertTrue(a.manualRounds().claimable(List.of(name)).isEmpty());
            assertFalse(a.views().rows(List.of(name)).getFirst().held(), "the loser's claim was rolled back");
            RunRequest ended = a.controls().runRequest(seenByA.id()).orElseThrow();
            assertEquals(RunRequestState.ENDED, ended.state());
            assertEquals(Optional.of(HistoryOutcome.OK), ended.outcome());
            List<HistoryEntry> history = rows(a, name);
            assertEquals(1, history.size(), history.toString());
            assertEquals(Optional.of(HistoryTrigger.MANUAL), history.getFirst().trigger());
            assertEquals("cli:alice", history.getFirst().requestedBy());
            assertEquals(HistoryOutcome.OK, history.getFirst().outcome());
            assertEquals(ended.requestedAt(), history.getFirst().instant());
        }
    }

    private static <T> Callable<T> racing(CyclicBarrier together, Callable<T> claim) {
        return () -> {
            together.await();
            return claim.call();
        };
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRequestWaitsWhileARoundHoldsTheLeaseOrAnInstantWaitsForItsRerun(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("request-waits");
        Instant t1 = leases.readDatabaseClock().minusSeconds(60);
        Handle round = leases.slots().claimSlot(name, t1).orElseThrow();
        RunRequest request = leases.controls().requestRun(name, UUID.randomUUID().toString(), "cli:alice");

        assertTrue(leases.manualRounds().claimable(List.of(name)).isEmpty(), "held by a round");
        assertEquals(Optional.empty(), leases.manualRounds().claim(request).map(ManualRun::request));

        round.release(); // cut short: the instant waits for its rerun, which comes first
        assertTrue(leases.manualRounds().claimable(List.of(name)).isEmpty(), "an instant waits for its rerun");
        assertEquals(Optional.empty(), leases.manualRounds().claim(request).map(ManualRun::request));

        Unfinished cut = leases.slots().unfinishedSlots(List.of(name), Duration.ZERO).free().getFirst();
        Handle rerun = leases.slots().claimRerun(cut).orElseThrow();
        assertTrue(leases.manualRounds().claimable(List.of(name)).isEmpty(), "held by the rerun");
        leases.batches().finishAll(Map.of(rerun, t1));

        assertEquals(List.of(request.id()), leases.manualRounds().claimable(List.of(name)).stream().map(RunRequest::id).toList());
        ManualRun run = leases.manualRounds().claim(request).orElseThrow();
        assertEquals(Optional.of(t1), run.previousSlot());
        assertEquals(Optional.of(t1), leases.slots().lastSlot(name), "a manual claim leaves the instants on record");
        run.end(RoundEnd.OK, Optional.empty(), Optional.empty());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void theEndTakesAlongTheInstantsThatCameAndNotThoseToCome(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("request-takes-along");
        Instant now = leases.readDatabaseClock();
        Instant t1 = now.minusSeconds(120);
        Instant t2 = now.minusSeconds(60);
        Instant future = now.plusSeconds(3600);
        leases.batches().finishAll(Map.of(leases.slots().claimSlot(name, t1).orElseThrow(), t1));

        ManualRun run = leases.manualRounds().claim(leases.controls().requestRun(name, UUID.randomUUID().toString(), "cli:a"))
                .orElseThrow();
        assertTrue(leases.slots().claimSlot(name, t2).isEmpty(), "an instant coming during the manual round is refused");
        assertEquals(Optional.of(t2), run.end(new RoundEnd(HistoryOutcome.FAILED, "exit 3"), Optional.of(t2), Optional.of(future)),
                "the later candidate has not come: the earlier is taken along");
        assertEquals(Optional.of(t2), leases.slots().lastSlot(name));
        assertTrue(leases.slots().claimSlot(name, t2).isEmpty(), "the instant taken along is never claimed late");
        assertEquals(Optional.of(HistoryOutcome.FAILED), leases.controls().runRequest(run.request().id()).orElseThrow().outcome());
        HistoryEntry row = rows(leases, name).stream().filter(e -> e.trigger().equals(Optional.of(HistoryTrigger.MANUAL)))
                .findFirst().orElseThrow();
        assertEquals(HistoryOutcome.FAILED, row.outcome());
        assertEquals("exit 3", row.detail());

        // Never an instant before the one on record, and both candidates come: the later one.
        Instant t3 = leases.readDatabaseClock().minusSeconds(30);
        Instant t4 = leases.readDatabaseClock().minusSeconds(1);
        ManualRun second = leases.manualRounds().claim(leases.controls().requestRun(name, UUID.randomUUID().toString(), "cli:a"))
                .orElseThrow();
        assertEquals(Optional.of(t4), second.end(RoundEnd.OK, Optional.of(t3), Optional.of(t4)));
        ManualRun third = leases.manualRounds().claim(leases.controls().requestRun(name, UUID.randomUUID().toString(), "cli:a"))
                .orElseThrow();
        assertEquals(Optional.of(t4), third.end(RoundEnd.OK, Optional.of(t1), Optional.of(t2)), "the record never goes back");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRequestWhoseReplicaDiedIsSettledCutShortOnceItsLeaseExpires(TestDatabase db) {
        Leases dead = replica(db, "dead-" + UUID.randomUUID(), TestTimings.EXPIRING);
        Leases survivor = replica(db, "survivor-" + UUID.randomUUID(), TestTimings.FAST);
        String name = uniqueName("request-dead");
        RunRequest request = dead.controls().requestRun(name, UUID.randomUUID().toString(), "cli:alice");
        ManualRun run = dead.manualRounds().claim(request).orElseThrow();

        assertTrue(survivor.manualRounds().claimable(List.of(name)).isEmpty());
        assertEquals(RunRequestState.RUNNING, survivor.controls().runRequest(request.id()).orElseThrow().state(),
                "running while its lease lives");
        // Never renewed: the lease expires, and the next look settles the request.
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            survivor.manualRounds().claimable(List.of(name));
            return survivor.controls().runRequest(request.id()).orElseThrow().state() == RunRequestState.ENDED;
        });
        assertEquals(Optional.of(HistoryOutcome.CUT_SHORT), survivor.controls().runRequest(request.id()).orElseThrow().outcome());
        HistoryEntry row = rows(survivor, name).getFirst();
        assertEquals(HistoryOutcome.CUT_SHORT, row.outcome());
        assertEquals(run.handle().term(), row.term());
        assertTrue(row.detail().contains("stopped"), row.detail());
        assertTrue(survivor.manualRounds().claimable(List.of(name)).isEmpty(), "it is not run again");
    }
}
