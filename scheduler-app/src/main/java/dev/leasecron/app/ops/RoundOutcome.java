package dev.leasecron.app.ops;

import java.util.Locale;

/** How a round ended, as the {@code outcome} tag of {@code leasecron_rounds_total}. */
public enum RoundOutcome {
    /** The job returned normally. */
    OK,
    /** The job threw; the round is not rerun. */
    FAILED,
    /** Shutdown or a lost lease stopped the round; it is rerun. */
    CUT_SHORT,
    /** The round ran past the job's timeout and was cancelled. */
    TIMEOUT;

    /** The tag value: {@code ok}, {@code failed}, {@code cut_short}, {@code timeout}. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
