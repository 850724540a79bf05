package dev.leasecron.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code history:} section of a jobs file: whether the round history is kept on the primary
 * database, and how much of it.
 *
 * @param enabled false turns the history off: nothing is written, {@code leasecron history} says so
 * @param retain rows whose instant is older than this, by the database clock, are purged (default 14 days)
 * @param maxRowsPerJob beyond this many rows of one job, its oldest are purged (default 1,000)
 */
public record HistorySpec(boolean enabled, Duration retain, int maxRowsPerJob) {
    public static final Duration DEFAULT_RETAIN = Duration.ofDays(14);
    public static final int DEFAULT_MAX_ROWS_PER_JOB = 1_000;
    /** The fewest rows per job the cap may keep: the last outcome needs some. */
    public static final int MIN_ROWS_PER_JOB = 10;
    public static final int MAX_ROWS_PER_JOB = 1_000_000;
    /** The shortest retention: a shorter one would purge rows of rounds still running. */
    public static final Duration MIN_RETAIN = Duration.ofHours(1);

    /** The section's defaults, and what a file without it gets. */
    public static final HistorySpec DEFAULTS = new HistorySpec(true, DEFAULT_RETAIN, DEFAULT_MAX_ROWS_PER_JOB);

    public HistorySpec {
        Objects.requireNonNull(retain, "retain");
    }
}
