package dev.leasecron.lease.bench;

import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Claim-an-instant + finish round trips, the statements of an ordinary round, on each database:
 * rounds per second and per-round latency, with 1 and 4 concurrent claimants on separate
 * connections. Prints a table; asserts nothing. Not part of the test suite; run with
 * {@code scripts/bench-lease.sh}.
 */
@Tag("benchmark")
class ClaimFinishBenchmark {
    private static final int WARMUP = 300;
    private static final int ROUNDS_PER_THREAD = 2000;

    @Test
    void claimAndFinishRoundTrips() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("| database | claimants | rounds | rounds/s | p50 ms | p99 ms | max ms |");
        lines.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (TestDatabase db : TestDatabases.all().toList()) {
            try (db) {
                // SQLite is the embedded default: one process, one connection.
                for (int threads : db.isSqlite() ? new int[] {1} : new int[] {1, 4}) {
                    lines.add(measure(db, threads));
                }
            }
        }
        System.out.println();
        System.out.println("claim an instant + finish, " + ROUNDS_PER_THREAD + " rounds per claimant, "
                + Runtime.getRuntime().availableProcessors() + " cores");
        lines.forEach(System.out::println);
    }

    private static String measure(TestDatabase db, int threads) throws Exception {
        List<Leases> claimants = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            claimants.add(db.leases(TestTimings.FAST, db.pool(1)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            run(pool, claimants, WARMUP);
            long start = System.nanoTime();
            long[] latencies = run(pool, claimants, ROUNDS_PER_THREAD);
            double seconds = (System.nanoTime() - start) / 1e9;
            Arrays.sort(latencies);
            return String.format(Locale.ROOT, "| %s | %d | %d | %.0f | %.2f | %.2f | %.2f |", db.kind(), threads,
                    latencies.length, latencies.length / seconds, ms(latencies, 0.50), ms(latencies, 0.99),
                    latencies[latencies.length - 1] / 1e6);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Each claimant runs its own job: one name, an instant a second later every round. */
    private static long[] run(ExecutorService pool, List<Leases> claimants, int rounds) throws Exception {
        List<Future<long[]>> results = new ArrayList<>();
        for (Leases leases : claimants) {
            results.add(pool.submit(() -> {
                String name = TestDatabase.uniqueName("bench");
                Instant slot = Instant.parse("2020-01-01T00:00:00Z");
                long[] took = new long[rounds];
                for (int i = 0; i < rounds; i++) {
                    slot = slot.plusSeconds(1);
                    long t0 = System.nanoTime();
                    leases.slots().claimSlot(name, slot).orElseThrow().finish(slot);
                    took[i] = System.nanoTime() - t0;
                }
                return took;
            }));
        }
        List<long[]> all = new ArrayList<>();
        for (Future<long[]> f : results) {
            all.add(f.get());
        }
        return all.stream().flatMapToLong(Arrays::stream).toArray();
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] / 1e6;
    }
}
