package dev.leasecron.lease;

import java.util.Locale;

/**
 * What became of an instant, as the history records it: a round that ran (or runs), or a span of
 * instants that did not run. One vocabulary with the logs, metrics, CLI and dashboard.
 */
public enum HistoryOutcome {
    /** Claimed and not ended yet, or its replica died and no rerun has completed the row yet. */
    RUNNING,
    /** The job returned normally. */
    OK,
    /** The job threw or returned an error: it ran to its end and is not run again. */
    FAILED,
    /** The job ran past its timeout and was cancelled: it ran to its end and is not run again. */
    TIMEOUT,
    /** Shutdown, a lost lease or the replica's death stopped the round: the instant runs once more. */
    CUT_SHORT,
    /** Instants a round of the same job overran: not run, by design. */
    SKIPPED,
    /** Instants no replica claimed (the database did not answer, or no replica ran). */
    MISSED,
    /** A cut-short instant given up because a later instant of its job came first. */
    SUPERSEDED,
    /**
     * Instants not run because an operator suspended the job: the instant's claim row (term above 0),
     * completed by the replica that claimed and finished it without running it; or a span (term 0) of
     * the instants a late claim of such an instant took along.
     */
    SUSPENDED;

    /** The name in logs, the CLI and the JSON API: {@code ok}, {@code cut_short}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a round ran (or runs) for this entry; false for the spans of instants not run. */
    public boolean ran() {
        return switch (this) {
            case RUNNING, OK, FAILED, TIMEOUT, CUT_SHORT -> true;
            case SKIPPED, MISSED, SUPERSEDED, SUSPENDED -> false;
        };
    }

    /** The outcome named by {@code label} (case-insensitive). */
    public static HistoryOutcome ofLabel(String label) {
        return valueOf(label.trim().toUpperCase(Locale.ROOT));
    }
}
