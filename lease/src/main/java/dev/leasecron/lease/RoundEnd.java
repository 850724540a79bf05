package dev.leasecron.lease;

import java.util.Objects;

/**
 * How a round ended, as its history row records it: given with its finish or release
 * ({@link HandleBatches#finishAll(java.util.Map, java.util.Map)}, {@link HandleBatches#releaseAll(java.util.Map)}).
 *
 * @param outcome one of the outcomes of a round that ran ({@link HistoryOutcome#ran()}), not {@code RUNNING};
 *     or {@link HistoryOutcome#SUSPENDED}: the instant was claimed and finished at once without running,
 *     because an operator suspended its job (see {@link JobControls})
 * @param detail the error or reason; empty when none. Cut to a few KiB when written.
 */
public record RoundEnd(HistoryOutcome outcome, String detail) {
    public RoundEnd {
        Objects.requireNonNull(outcome, "outcome");
        if ((!outcome.ran() && outcome != HistoryOutcome.SUSPENDED) || outcome == HistoryOutcome.RUNNING) {
            throw new IllegalArgumentException("a round ends ok, failed, timeout, cut_short or suspended, not "
                    + outcome.label());
        }
        detail = detail == null ? "" : detail;
    }

    /** The end of a round that ran to its end without error. */
    public static final RoundEnd OK = new RoundEnd(HistoryOutcome.OK, "");
}
