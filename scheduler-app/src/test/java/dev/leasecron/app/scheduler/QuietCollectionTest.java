package dev.leasecron.app.scheduler;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class QuietCollectionTest {
    private static final long MIB = 1 << 20;
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Instant T = Instant.parse("2026-12-05T12:00:00Z");

    /** A heap whose figures the test sets; its collections wait for {@link #release}. */
    private static final class FakeHeap implements QuietCollection.Heap {
        volatile long allocated;
        volatile long youngFree;
        final AtomicInteger collections = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public long allocatedBytes() {
            return allocated;
        }

        @Override
        public long youngFree() {
            return youngFree;
        }

        @Override
        public void collect() {
            collections.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Keeps the allocations of a test from being optimised away. */
    static volatile byte[] sink;

    private final FakeHeap heap = new FakeHeap();
    private final QuietCollection quiet = new QuietCollection(heap);

    @AfterEach
    void endCollections() {
        heap.release.countDown();
    }

    @Test
    void collectsWhenTheYoungGenerationHasLessRoomThanTwiceWhatTheLastPeriodAllocated() {
        heap.youngFree = 15 * MIB;
        assertFalse(quiet.beforeInstant(T, SECOND), "the first instant has nothing to measure by");
        heap.allocated = 10 * MIB;
        assertTrue(quiet.beforeInstant(T.plusSeconds(10), SECOND));
        heap.release.countDown();
        await().untilAsserted(() -> assertEquals(1, heap.collections.get()));
    }

    @Test
    void leavesTheCollectorAloneWhileTwiceThatFits() {
        heap.youngFree = 20 * MIB;
        quiet.beforeInstant(T, SECOND);
        heap.allocated = 10 * MIB;
        assertFalse(quiet.beforeInstant(T.plusSeconds(10), SECOND));
        heap.allocated = 15 * MIB;
        assertFalse(quiet.beforeInstant(T.plusSeconds(20), SECOND), "measured since the last instant, not since the first");
    }

    @Test
    void neverWithinItsLeadOfTheInstantNorTwiceForOne() {
        heap.youngFree = MIB;
        quiet.beforeInstant(T, SECOND);
        heap.allocated = 10 * MIB;
        assertFalse(quiet.beforeInstant(T.plusSeconds(1), QuietCollection.MIN_LEAD.minusMillis(1)));
        heap.allocated = 20 * MIB;
        assertTrue(quiet.beforeInstant(T.plusSeconds(2), SECOND));
        heap.allocated = 30 * MIB;
        assertFalse(quiet.beforeInstant(T.plusSeconds(2), SECOND), "the same instant again");
    }

    @Test
    void oneCollectionAtATime() {
        heap.youngFree = MIB;
        quiet.beforeInstant(T, SECOND);
        heap.allocated = 10 * MIB;
        assertTrue(quiet.beforeInstant(T.plusSeconds(1), SECOND));
        heap.allocated = 20 * MIB;
        assertFalse(quiet.beforeInstant(T.plusSeconds(2), SECOND), "the first still runs");
        heap.release.countDown();
        AtomicLong instant = new AtomicLong(3);
        await().until(() -> {
            // Once the first has ended, the next instant short of room collects again.
            heap.allocated += 10 * MIB;
            return quiet.beforeInstant(T.plusSeconds(instant.getAndIncrement()), SECOND);
        });
        await().untilAsserted(() -> assertEquals(2, heap.collections.get()));
    }

    @Test
    void onG1WithConcurrentExplicitCollectionsItEmptiesTheYoungGeneration() {
        // This module's tests run with the image's -XX:+UseG1GC -XX:+ExplicitGCInvokesConcurrent (pom.xml).
        QuietCollection real = QuietCollection.forThisJvm();
        assertNotSame(QuietCollection.OFF, real);
        GarbageCollectorMXBean young = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .filter(c -> c.getName().equals("G1 Young Generation")).findFirst().orElseThrow();
        MemoryPoolMXBean eden = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getName().equals("G1 Eden Space")).findFirst().orElseThrow();
        real.beforeInstant(T, SECOND);
        // More than the young generation holds since the last instant: there is less room than twice that.
        long garbage = eden.getUsage().getCommitted() + MIB;
        for (long n = 0; n < garbage; n += MIB) {
            sink = new byte[(int) MIB];
        }
        long collections = young.getCollectionCount();
        assertTrue(real.beforeInstant(T.plusSeconds(10), SECOND));
        await().until(() -> young.getCollectionCount() > collections);
    }

    @Test
    void offNeverCollects() {
        assertFalse(QuietCollection.OFF.beforeInstant(T, SECOND));
        assertFalse(QuietCollection.OFF.beforeInstant(T.plusSeconds(1), SECOND));
    }
}
