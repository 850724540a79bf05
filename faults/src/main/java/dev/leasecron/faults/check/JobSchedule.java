package dev.leasecron.faults.check;

import java.util.stream.LongStream;

/**
 * A harness job's schedule: every {@code periodSeconds} seconds, on the epoch seconds it divides (the
 * cron {@code *}{@code /N * * * * *} for an N that divides 60).
 */
public record JobSchedule(String name, int periodSeconds) {

    public JobSchedule {
        if (periodSeconds <= 0 || 60 % periodSeconds != 0) {
            throw new IllegalArgumentException("periodSeconds must divide 60, not " + periodSeconds);
        }
    }

    /** The instants in {@code [fromMs, toMs]}, in ms. */
    public LongStream instants(long fromMs, long toMs) {
        long period = periodSeconds * 1000L;
        long first = Math.ceilDiv(fromMs, period) * period;
        return LongStream.iterate(first, t -> t <= toMs, t -> t + period);
    }

    public long periodMs() {
        return periodSeconds * 1000L;
    }
}
