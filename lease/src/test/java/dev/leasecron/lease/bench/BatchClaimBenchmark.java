package dev.leasecron.lease.bench;

import dev.leasecron.lease.BatchResult;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.BorrowCounting;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Many jobs due at the same instant, three replicas: claim every name for the instant and finish the
 * rounds won, one statement per name and step against the batch forms. Prints, per database and
 * number of names, the rounds per second of a whole instant (claims and finishes of all replicas),
 * the fire delay (when a name's claim returned, after the instant became due) at p50/p99/max, and the
 * connections borrowed per round (one per statement, one per write-and-read-back transaction on
 * MariaDB and for SQLite's inserts), which a loaded machine does not skew. Asserts nothing; not part
 * of the suite: run with {@code -Dtest=BatchClaimBenchmark -Dtest.excludedGroups=}.
 */
@Tag("benchmark")
class BatchClaimBenchmark {
    private static final int REPLICAS = 3;
    /** Each one-by-one replica claims on this many threads and connections, as jobs on their own threads would. */
    private static final int THREADS_PER_REPLICA = 8;

    @Test
    void manyJobsDueAtTheSameInstant() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("| database | names | mode | instants | rounds/s | fire delay p50 ms | p99 ms | max ms | connections per round |");
        lines.add("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (TestDatabase db : TestDatabases.all().toList()) {
            try (db) {
                // SQLite is the embedded default of a single process: 10,000 jobs there is not its case.
                for (int names : db.isSqlite() ? new int[] {1_000} : new int[] {1_000, 10_000}) {
                    int instants = names >= 10_000 ? 2 : 3;
                    lines.add(measure(db, names, instants, false));
                    lines.add(measure(db, names, instants, true));
                }
            }
        }
        System.out.println();
        System.out.println("jobs due at the same instant, " + REPLICAS + " replicas, "
                + Runtime.getRuntime().availableProcessors() + " cores");
        lines.forEach(System.out::println);
    }

    private static String measure(TestDatabase db, int n, int instants, boolean batch) throws Exception {
        AtomicLong borrowed = new AtomicLong();
        List<Leases> replicas = new ArrayList<>();
        for (int i = 0; i < REPLICAS; i++) {
            replicas.add(db.leases(TestTimings.FAST, BorrowCounting.wrap(db.pool(THREADS_PER_REPLICA), borrowed)));
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(TestDatabase.uniqueName("bench-batch"));
        }
        ExecutorService pool = Executors.newFixedThreadPool(REPLICAS * THREADS_PER_REPLICA);
        try {
            Instant slot = Instant.parse("2020-01-01T00:00:00Z");
            instant(pool, replicas, names, slot, batch); // warm-up: inserts the rows, as a first start would
            borrowed.set(0);
            List<Long> delays = new ArrayList<>();
            long started = System.nanoTime();
            for (int i = 1; i <= instants; i++) {
                delays.addAll(instant(pool, replicas, names, slot.plusSeconds(i), batch));
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            long[] sorted = delays.stream().mapToLong(Long::longValue).sorted().toArray();
            long rounds = (long) n * instants;
            return String.format(Locale.ROOT, "| %s | %d | %s | %d | %.0f | %.1f | %.1f | %.1f | %.2f |", db.kind(), n,
                    batch ? "batch" : "one by one", instants, rounds / seconds, ms(sorted, 0.50), ms(sorted, 0.99),
                    sorted[sorted.length - 1] / 1e6, (double) borrowed.get() / rounds);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One instant: every replica claims every name at once, then finishes what it won.
     *
     * @return the fire delay of each name won, in nanoseconds from the moment the instant was due
     */
    private static List<Long> instant(ExecutorService pool, List<Leases> replicas, List<String> names, Instant slot,
            boolean batch) throws Exception {
        long due = System.nanoTime();
        List<Future<List<Long>>> results = new ArrayList<>();
        for (Leases replica : replicas) {
            if (batch) {
                results.add(pool.submit(() -> {
                    BatchResult<String, Optional<Handle>> claimed = replica.slots().claimSlots(slot, names);
                    long delay = System.nanoTime() - due;
                    Map<Handle, Instant> won = new HashMap<>();
                    claimed.answered().values().forEach(h -> h.ifPresent(x -> won.put(x, slot)));
                    if (!won.isEmpty()) {
                        replica.batches().finishAll(won);
                    }
                    return java.util.Collections.nCopies(won.size(), delay);
                }));
            } else {
                for (int t = 0; t < THREADS_PER_REPLICA; t++) {
                    int from = t;
                    results.add(pool.submit(() -> {
                        List<Long> delays = new ArrayList<>();
                        // Each thread takes every eighth name, in an order of its own, as jobs due together would.
                        for (int i = from; i < names.size(); i += THREADS_PER_REPLICA) {
                            Optional<Handle> h = replica.slots().claimSlot(names.get(i), slot);
                            if (h.isPresent()) {
                                delays.add(System.nanoTime() - due);
                                h.get().finish(slot);
                            }
                        }
                        return delays;
                    }));
                }
            }
        }
        List<Long> delays = new ArrayList<>();
        for (Future<List<Long>> f : results) {
            delays.addAll(f.get());
        }
        if (delays.size() != names.size()) {
            throw new IllegalStateException(delays.size() + " of " + names.size() + " names claimed at " + slot);
        }
        return delays;
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] / 1e6;
    }
}
