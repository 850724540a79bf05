package dev.leasecron.app.scheduler;

import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/** The scheduler's structured log entries: one JSON object per line, the event name in {@code event}. */
final class RoundLog {
    static final Logger LOG = LoggerFactory.getLogger("leasecron.scheduler");

    private RoundLog() {}

    static LoggingEventBuilder event(Level level, String event, ScheduledJob job) {
        return LOG.atLevel(level).addKeyValue("event", event).addKeyValue("job", job.name());
    }

    static LoggingEventBuilder round(Level level, String event, ScheduledJob job, Instant instant, long term,
            String holder, String instance, boolean rerun) {
        return event(level, event, job)
                .addKeyValue("instant", instant::toString) // formatted only when the level is on
                .addKeyValue("term", term)
                .addKeyValue("holder", holder)
                .addKeyValue("instance", instance)
                .addKeyValue("rerun", rerun);
    }
}
