package dev.leasecron.app.scheduler;

import java.time.Instant;
import java.util.Optional;

/** A job's schedule as the scheduler reads it: instants in UTC, computed in the job's zone. */
public interface Instants {

    /** The first instant strictly after {@code after}; empty when the schedule has none left. */
    Optional<Instant> next(Instant after);

    /** The latest instant at or before {@code at}; empty when there is none. */
    Optional<Instant> latestAtOrBefore(Instant at);
}
