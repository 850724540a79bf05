package dev.leasecron.lease;

import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * The database clock as seen from this process, for deciding when an instant is due without
 * trusting the process clock. Statements that read the database's now feed it samples; between
 * samples it runs on {@link System#nanoTime()}.
 *
 * <p>A sample read between local times {@code sent} and {@code received} says the database clock was
 * {@code D} somewhere in that window, so at a later local time {@code t} it is at least
 * {@code D + (t - received)}. {@link #now()} returns that lower bound: waiting for it to reach an
 * instant never fires early, and fires at most one round trip late.
 */
public final class DatabaseClock {
    /** How long a tighter sample is kept over later, looser ones. */
    static final long KEEP_AT_MOST_NANOS = 30_000_000_000L;

    private final LongSupplier nanoTime;
    private volatile Sample latest;

    private record Sample(long dbMillis, long receivedNanos) {}

    DatabaseClock(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** Whether any sample has been taken. */
    public boolean known() {
        return latest != null;
    }

    /**
     * A lower bound of the database's now.
     *
     * @throws IllegalStateException no sample has been taken yet
     */
    public Instant now() {
        Sample s = latest;
        if (s == null) {
            throw new IllegalStateException("the database clock has not been read yet");
        }
        long elapsedNanos = nanoTime.getAsLong() - s.receivedNanos();
        return Instant.ofEpochMilli(s.dbMillis()).plusNanos(elapsedNanos);
    }

    /** How long ago, in nanoTime, the latest sample arrived; {@code Long.MAX_VALUE} when none. */
    public long sampleAgeNanos() {
        Sample s = latest;
        return s == null ? Long.MAX_VALUE : nanoTime.getAsLong() - s.receivedNanos();
    }

    synchronized void observe(long dbMillis, long receivedNanos) {
        Sample kept = latest;
        if (kept == null || receivedNanos - kept.receivedNanos() >= KEEP_AT_MOST_NANOS
                || dbMillis * 1_000_000L - receivedNanos >= kept.dbMillis() * 1_000_000L - kept.receivedNanos()) {
            latest = new Sample(dbMillis, receivedNanos);
        }
    }
}
