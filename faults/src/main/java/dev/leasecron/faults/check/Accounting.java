package dev.leasecron.faults.check;

/** The ways an instant of a job can be accounted for; an instant is accounted for exactly one. */
public enum Accounting {
    /** A first round ran to its end (ok, failed or timed out). */
    RAN,
    /** A first round was cut short and the instant ran a second time. */
    RERUN,
    /** An overrunning round held the name while it came; the round's end logged it skipped. */
    SKIPPED,
    /** Its round was cut short and a later instant's claim gave it up, with a log entry saying so. */
    SUPERSEDED,
    /** Missed while no replica ran, and run at a replica's start. */
    CAUGHT_UP,
    /**
     * No replica claimed it, with a log entry saying so: the database did not answer
     * ({@code instant.unclaimed}), or the claim that passed over it reported it ({@code instant.missed}).
     */
    UNCLAIMED
}
