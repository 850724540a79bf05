package dev.leasecron.app.scheduler;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logger a job's plugin writes to, {@code leasecron.job.<type>}: looked up once per type rather
 * than built by name for each of the thousand rounds starting on one instant. Types are the plugins
 * installed, a handful.
 */
final class JobLoggers {
    private static final Map<String, Logger> BY_TYPE = new ConcurrentHashMap<>();

    private JobLoggers() {}

    static Logger of(String type) {
        return BY_TYPE.computeIfAbsent(type, t -> LoggerFactory.getLogger("leasecron.job." + t));
    }
}
