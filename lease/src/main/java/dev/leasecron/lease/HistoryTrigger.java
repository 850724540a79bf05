package dev.leasecron.lease;

import java.util.Locale;

/** Why a round ran: its instant came, a start caught it up, a rerun took it over, or an operator asked. */
public enum HistoryTrigger {
    SCHEDULED,
    CATCH_UP,
    RERUN,
    MANUAL;

    /** The name in the CLI and the JSON API: {@code scheduled}, {@code catch_up}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
