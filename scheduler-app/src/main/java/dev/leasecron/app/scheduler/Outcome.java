package dev.leasecron.app.scheduler;

import java.util.Locale;

/** How a round ended. Only a round cut short is run again. */
public enum Outcome {
    /** The job returned normally. */
    OK,
    /** The job threw: it ran to its end, and is not run again. */
    FAILED,
    /** The job ran past its timeout and was cancelled: it ran to its end, and is not run again. */
    TIMEOUT,
    /** Shutdown or a lost lease stopped the round: the instant is run once more, elsewhere. */
    CUT_SHORT;

    /** The name in logs and metrics: {@code ok}, {@code failed}, {@code timeout}, {@code cut_short}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
