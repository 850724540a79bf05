package dev.leasecron.app.daemon;

import dev.leasecron.app.scheduler.Instants;
import dev.leasecron.config.Schedule;
import java.time.Instant;
import java.util.Optional;

/** A job's cron {@link Schedule}, as the scheduler reads instants. */
record ScheduleInstants(Schedule schedule) implements Instants {

    @Override
    public Optional<Instant> next(Instant after) {
        return schedule.nextInstant(after);
    }

    @Override
    public Optional<Instant> latestAtOrBefore(Instant at) {
        return schedule.previousOrSame(at);
    }
}
