package dev.leasecron.app.ops;

import dev.leasecron.app.logging.Event;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A warning logged at most once per {@code quiet} period, with how many occurrences the period held:
 * for failures that come in bursts, one per statement, where one line tells as much as a thousand.
 */
final class BurstWarning {
    private static final Logger LOG = LoggerFactory.getLogger("leasecron.history");

    private final String event;
    private final long quietNanos;
    private final String message;
    private long lastLoggedNanos;
    private boolean loggedOnce;
    private long suppressed;

    BurstWarning(String event, Duration quiet, String message) {
        this.event = event;
        this.quietNanos = quiet.toNanos();
        this.message = message;
    }

    void warn(String error) {
        long count;
        synchronized (this) {
            long now = System.nanoTime();
            if (loggedOnce && now - lastLoggedNanos < quietNanos) {
                suppressed++;
                return;
            }
            count = suppressed + 1;
            suppressed = 0;
            loggedOnce = true;
            lastLoggedNanos = now;
        }
        Event.of(event).with("error", error).with("failures", count).with("reason", message).warn(LOG);
    }
}
