package dev.leasecron.bench;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a replica's no-op task reports when its body starts: the job and the scheduled instant. The fire
 * delay is the body's start by the local clock, moved onto the database clock by an offset measured at
 * start ({@link DbClock}), minus the instant: the same measure for all four.
 */
final class Recorder {
    record Fire(int job, long instantMs, long delayMicros) {
        /** One line of a replica's fires file. */
        String line() {
            return job + " " + instantMs + " " + delayMicros;
        }

        static Fire parse(String line) {
            String[] f = line.split(" ");
            return new Fire(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]));
        }
    }

    /** The task's own line, as the example plugin's {@code hello} writes one; off (WARN) in burst cells. */
    private static final Logger TASK = LoggerFactory.getLogger("bench.task");

    private final DbClock clock;
    /** Every fire, duplicates included: the cell tells them apart across its replicas. */
    final ConcurrentLinkedQueue<Fire> fires = new ConcurrentLinkedQueue<>();
    final LongAdder started = new LongAdder();

    Recorder(DbClock clock) {
        this.clock = clock;
    }

    void fired(int job, Instant instant) {
        long nowMicros = clock.nowMicros();
        long instantMs = instant.toEpochMilli();
        started.increment();
        fires.add(new Fire(job, instantMs, nowMicros - instantMs * 1000));
        TASK.info("hello from job-{}: instant={}", job, instant);
    }

    /** The jobs of {@code instantMs} that started here, each counted once. */
    long jobsOf(long instantMs) {
        return fires.stream().filter(f -> f.instantMs() == instantMs).map(Fire::job).distinct().count();
    }

    void write(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file)) {
            for (Fire f : fires) {
                w.write(f.line());
                w.write('\n');
            }
        }
    }
}
