package dev.leasecron.app.scheduler;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Empties the young generation between instants when what the replica allocated since the last
 * instant would not fit in it again: the collection then runs while no round is due, where one forced
 * by a full young generation stops every thread of the burst that filled it. That was the fire delay's
 * tail: 20-100 ms added to every round of an instant on two cores, once every eight to twenty instants
 * per replica (bench/README.md).
 *
 * <p>Only on G1 with {@code -XX:+ExplicitGCInvokesConcurrent}, as the image runs: there
 * {@code System.gc()} is a young collection that starts a concurrent cycle, a pause of the length the
 * burst would have had. On any other JVM setting it would be a full collection, and nothing is done.
 */
final class QuietCollection {
    /**
     * Collects only this long or longer before an instant: the pause and the concurrent cycle's two
     * short ones end well before it (tens of milliseconds each, measured).
     */
    static final Duration MIN_LEAD = Duration.ofMillis(500);

    /** What the rule reads of the heap. */
    interface Heap {
        /** Bytes allocated by every thread since the JVM started, never less than the last answer. */
        long allocatedBytes();

        /** Bytes the young generation still takes before the collector must run. */
        long youngFree();

        /** Starts a young collection; returns once it has ended. */
        void collect();
    }

    /** For a JVM where {@code System.gc()} is a full collection: never collects. */
    static final QuietCollection OFF = new QuietCollection(null);

    /** Null for {@link #OFF}. */
    private final Heap heap;
    private final AtomicBoolean collecting = new AtomicBoolean();
    /** The instant last checked and the allocation count then; guarded by this. */
    private Instant checked;
    private long allocatedThen = -1;

    QuietCollection(Heap heap) {
        this.heap = heap;
    }

    /** Collecting between instants when this JVM can do it concurrently; else {@link #OFF}. */
    static QuietCollection forThisJvm() {
        HotSpotDiagnosticMXBean flags = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        Optional<MemoryPoolMXBean> eden = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getName().equals("G1 Eden Space")).findFirst();
        if (flags == null || eden.isEmpty() || !flags.getVMOption("ExplicitGCInvokesConcurrent").getValue().equals("true")) {
            return OFF;
        }
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        return new QuietCollection(new Heap() {
            @Override
            public long allocatedBytes() {
                return threads.getTotalThreadAllocatedBytes();
            }

            @Override
            public long youngFree() {
                MemoryUsage usage = eden.get().getUsage();
                return usage.getCommitted() - usage.getUsed();
            }

            @Override
            public void collect() {
                System.gc();
            }
        });
    }

    /**
     * Told by the watcher at its last wake-up before {@code slot}, {@code left} before it: collects, on a
     * thread of its own, when the young generation has less room left than twice what was allocated
     * since the last instant checked. Once per instant; never while a collection it started runs.
     *
     * @return whether it started a collection
     */
    boolean beforeInstant(Instant slot, Duration left) {
        if (heap == null) {
            return false;
        }
        long allocated;
        long since;
        synchronized (this) {
            if (slot.equals(checked)) {
                return false;
            }
            checked = slot;
            allocated = heap.allocatedBytes();
            since = allocatedThen < 0 ? -1 : allocated - allocatedThen;
            allocatedThen = allocated;
        }
        if (since < 0 || left.compareTo(MIN_LEAD) < 0 || heap.youngFree() >= 2 * since
                || !collecting.compareAndSet(false, true)) {
            return false;
        }
        Thread.ofPlatform().daemon().name("collect-between-instants").start(() -> {
            try {
                heap.collect();
            } finally {
                collecting.set(false);
            }
        });
        return true;
    }
}
