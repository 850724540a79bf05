package dev.leasecron.app.scheduler;

import java.time.Duration;

/** Hears what the scheduler does, for counting it (metrics). Methods must not block. */
public interface RoundListener {

    /** A claim of an instant was won or refused. */
    default void claimed(ScheduledJob job, boolean won) {}

    /** A round started, {@code fireDelay} after its instant by the database clock. */
    default void started(ScheduledJob job, boolean rerun, Duration fireDelay) {}

    /** A round ended. */
    default void ended(ScheduledJob job, boolean rerun, Outcome outcome, Duration took) {}

    /** Instants of a job were skipped because a round overran them. */
    default void skipped(ScheduledJob job, long count) {}

    /** Instants of a job ran on no replica and never will: logged {@code instant.missed}. */
    default void missed(ScheduledJob job, long count) {}

    /** Instants of a suspended job were left alone: claimed and finished without running, or not run here. */
    default void suspended(ScheduledJob job, long count) {}

    /** An unfinished instant was given up by the claim of a later one. */
    default void superseded(ScheduledJob job) {}

    /** Hears nothing. */
    RoundListener NONE = new RoundListener() {};
}
