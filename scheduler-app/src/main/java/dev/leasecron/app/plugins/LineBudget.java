package dev.leasecron.app.plugins;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many lines of a command's output one round logs: the first {@code maxLines} of stdout and
 * stderr together. The rest are counted, not logged, so a command writing without end (200 KB of
 * {@code yes} is 100,000 lines) cannot flood the daemon's log. Safe for the two pumps to share.
 */
final class LineBudget {
    private final int maxLines;
    private final AtomicLong seen = new AtomicLong();

    LineBudget(int maxLines) {
        if (maxLines < 1) {
            throw new IllegalArgumentException("maxLines must be positive: " + maxLines);
        }
        this.maxLines = maxLines;
    }

    /** Counts one line; true when it is still within the budget, and so is to be logged. */
    boolean take() {
        return seen.incrementAndGet() <= maxLines;
    }

    /** The lines counted past the budget so far. */
    long dropped() {
        return Math.max(0, seen.get() - maxLines);
    }

    int maxLines() {
        return maxLines;
    }
}
