package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replicas racing for the same name and the same instant, each on a connection of its own, released
 * together by a barrier: exactly one wins every trial. The batch races mix batches with single claims
 * over the same names; their shuffle seed is printed with a failure ({@code -Dleasecron.seed=N}).
 */
class RaceTest {
    private static final int REPLICAS = 4;
    private static final int TRIALS = 1000;
    private static final Instant SLOT = Instant.parse("2026-01-01T00:00:00Z");
    private static final int BATCH_TRIALS = 100;
    private static final int BATCH_NAMES = 40;
    private static final long SEED = Long.getLong("leasecron.seed", System.nanoTime());

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void exactlyOneReplicaClaimsAFreshName(TestDatabase db) throws Exception {
        race(db, "race", (leases, name) -> leases.claim(name));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void exactlyOneReplicaClaimsAFreshInstant(TestDatabase db) throws Exception {
        race(db, "race-slot", (leases, name) -> leases.slots().claimSlot(name, SLOT));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void exactlyOneReplicaClaimsTheNextInstantOfAReleasedName(TestDatabase db) throws Exception {
        // The read-then-write path: the row exists, is free, and every replica reads the same term.
        Leases setup = db.leases(TestTimings.FAST);
        race(db, "race-next", (leases, name) -> leases.slots().claimSlot(name, SLOT.plusSeconds(1)), name ->
                setup.slots().claimSlot(name, SLOT).orElseThrow().finish(SLOT));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void exactlyOneReplicaClaimsACutShortInstantAgain(TestDatabase db) throws Exception {
        Leases setup = db.leases(TestTimings.FAST);
        Map<String, Unfinished> found = new ConcurrentHashMap<>();
        race(db, "race-rerun", (leases, name) -> leases.slots().claimRerun(found.get(name)), name -> {
            setup.slots().claimSlot(name, SLOT).orElseThrow().release();
            found.put(name, setup.slots().unfinishedSlots(List.of(name)).getFirst());
        });
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void exactlyOneReplicaClaimsEachFreshInstantOfABatch(TestDatabase db) throws Exception {
        raceBatches(db, "race-batch", names -> {}, SLOT);
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void exactlyOneReplicaClaimsEachNextInstantOfABatchOfReleasedNames(TestDatabase db) throws Exception {
        // The read-then-write path for every name: rows exist, are free, and every replica reads the same terms.
        Leases setup = db.leases(TestTimings.FAST);
        raceBatches(db, "race-batch-next", names -> {
            Map<Handle, Instant> ended = new java.util.HashMap<>();
            setup.slots().claimSlots(SLOT, names).answered().values().forEach(h -> ended.put(h.orElseThrow(), SLOT));
            assertEquals(names.size(), setup.batches().finishAll(ended).answered().values().stream().filter(b -> b).count());
        }, SLOT.plusSeconds(1));
    }

    /**
     * Replicas claiming the same instant for the same names at once, half through batches and half
     * one name at a time, in shuffled orders: every name has exactly one winner, every trial.
     */
    private static void raceBatches(TestDatabase db, String prefix, java.util.function.Consumer<List<String>> prepare,
            Instant slot) throws Exception {
        List<Leases> replicas = new ArrayList<>();
        for (int i = 0; i < REPLICAS; i++) {
            replicas.add(db.leases(TestTimings.FAST, db.pool(1)));
        }
        ExecutorService threads = Executors.newFixedThreadPool(REPLICAS);
        java.util.Random random = new java.util.Random(SEED);
        try {
            for (int trial = 0; trial < BATCH_TRIALS; trial++) {
                List<String> names = new ArrayList<>();
                for (int i = 0; i < BATCH_NAMES; i++) {
                    names.add(uniqueName(prefix));
                }
                prepare.accept(names);
                CyclicBarrier start = new CyclicBarrier(REPLICAS);
                List<Future<List<String>>> results = new ArrayList<>();
                for (int r = 0; r < REPLICAS; r++) {
                    Leases replica = replicas.get(r);
                    boolean batch = r % 2 == 0;
                    List<String> order = new ArrayList<>(names);
                    java.util.Collections.shuffle(order, random);
                    Callable<List<String>> attempt = () -> {
                        start.await();
                        List<String> won = new ArrayList<>();
                        if (batch) {
                            BatchResult<String, Optional<Handle>> result = replica.slots().claimSlots(slot, order);
                            assertTrue(result.complete(), "every statement answered: " + result.failed());
                            result.answered().forEach((name, h) -> h.ifPresent(x -> won.add(name)));
                        } else {
                            order.forEach(name -> replica.slots().claimSlot(name, slot).ifPresent(x -> won.add(name)));
                        }
                        return won;
                    };
                    results.add(threads.submit(attempt));
                }
                Map<String, Integer> winners = new java.util.HashMap<>();
                for (Future<List<String>> r : results) {
                    r.get().forEach(name -> winners.merge(name, 1, Integer::sum));
                }
                for (String name : names) {
                    assertEquals(1, winners.getOrDefault(name, 0),
                            "seed " + SEED + ", trial " + trial + " on " + db + ": exactly one winner for " + name);
                }
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static void race(TestDatabase db, String prefix, BiFunction<Leases, String, Optional<Handle>> claim)
            throws Exception {
        race(db, prefix, claim, name -> {});
    }

    private static void race(TestDatabase db, String prefix, BiFunction<Leases, String, Optional<Handle>> claim,
            java.util.function.Consumer<String> prepare) throws Exception {
        List<Leases> replicas = new ArrayList<>();
        for (int i = 0; i < REPLICAS; i++) {
            replicas.add(db.leases(TestTimings.FAST, db.pool(1)));
        }
        ExecutorService threads = Executors.newFixedThreadPool(REPLICAS);
        try {
            for (int trial = 0; trial < TRIALS; trial++) {
                String name = uniqueName(prefix);
                prepare.accept(name);
                CyclicBarrier start = new CyclicBarrier(REPLICAS);
                List<Future<Optional<Handle>>> results = new ArrayList<>();
                for (Leases replica : replicas) {
                    Callable<Optional<Handle>> attempt = () -> {
                        start.await();
                        return claim.apply(replica, name);
                    };
                    results.add(threads.submit(attempt));
                }
                int winners = 0;
                for (Future<Optional<Handle>> r : results) {
                    winners += r.get().isPresent() ? 1 : 0;
                }
                assertEquals(1, winners, "trial " + trial + " on " + db + ": exactly one winner for " + name);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
