package dev.leasecron.bench;

import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * What every scheduler's no-op task reports when its body starts: the job, the scheduled instant and
 * the replica. The fire delay is the body's start by the local clock, moved onto the database clock
 * by an offset measured at start ({@link DbClock}), minus the instant: the same measure for all four.
 */
final class Recorder {
    record Fire(int job, long instantMs, long delayMicros, int replica, long atNanos) {}

    private final DbClock clock;
    final ConcurrentLinkedQueue<Fire> fires = new ConcurrentLinkedQueue<>();
    final LongAdder started = new LongAdder();
    private final ConcurrentHashMap<Long, Boolean> seen;
    final LongAdder duplicates = new LongAdder();

    /**
     * @param expectedFires the rounds the cell runs, so that the map of the ones seen never grows (and
     *     copies itself) inside a task body, where its cost would land on the delay measured
     */
    Recorder(DbClock clock, int expectedFires) {
        this.clock = clock;
        this.seen = new ConcurrentHashMap<>(expectedFires * 2);
    }

    void fired(int job, Instant instant, int replica) {
        long nowMicros = clock.nowMicros();
        long instantMs = instant.toEpochMilli();
        started.increment();
        if (seen.putIfAbsent(instantMs * 100_000L + job, Boolean.TRUE) != null) {
            duplicates.increment();
        }
        fires.add(new Fire(job, instantMs, nowMicros - instantMs * 1000, replica, System.nanoTime()));
    }
}
