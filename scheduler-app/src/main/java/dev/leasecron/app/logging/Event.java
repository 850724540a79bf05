package dev.leasecron.app.logging;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import net.logstash.logback.argument.StructuredArgument;
import net.logstash.logback.argument.StructuredArguments;
import net.logstash.logback.marker.Markers;
import org.slf4j.Logger;
import org.slf4j.Marker;

/**
 * One log entry for a named event, written in one line:
 * {@code Event.of(Events.ROUND_END).with("job", "backup").with("outcome", "ok").info(log)}.
 *
 * <p>In JSON the entry has {@code "event": "round.end"} and each field at the top level; its message
 * reads {@code round.end job=backup outcome=ok} in both formats. A field whose value is null is left
 * out. Strings, numbers and booleans are written as they are, maps as JSON objects and collections
 * as arrays (of values converted the same way), anything else as its {@code toString()}, so an
 * {@link java.time.Instant} becomes ISO-8601 UTC.
 *
 * <p>An event is built and logged by one thread; it is not meant to be kept or shared.
 */
public final class Event {
    private static final Set<String> RESERVED_KEYS =
            Set.of("@timestamp", "message", "logger", "thread", "level", "stack_trace", "event");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z0-9_]+)*");

    private final String name;
    private final List<StructuredArgument> fields = new ArrayList<>();

    private Event(String name) {
        this.name = name;
    }

    /**
     * An event named {@code name}, e.g. {@link Events#ROUND_START}.
     *
     * @throws IllegalArgumentException the name is not dotted lower-case words, like {@code round.end}
     */
    public static Event of(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("an event name is dotted lower-case words, like round.end: " + name);
        }
        return new Event(name);
    }

    /**
     * Adds field {@code key}; a null {@code value} adds nothing.
     *
     * @throws IllegalArgumentException {@code key} is one of the entry's own fields ({@code message},
     *     {@code level}, ...), which it would duplicate in the JSON object
     */
    public Event with(String key, Object value) {
        if (RESERVED_KEYS.contains(key)) {
            throw new IllegalArgumentException("\"" + key + "\" is a field of every log entry; name the event's field"
                    + " otherwise");
        }
        if (value != null) {
            fields.add(StructuredArguments.kv(key, plain(value)));
        }
        return this;
    }

    public void debug(Logger log) {
        if (log.isDebugEnabled()) {
            log.debug(marker(), pattern(), arguments(null));
        }
    }

    public void info(Logger log) {
        if (log.isInfoEnabled()) {
            log.info(marker(), pattern(), arguments(null));
        }
    }

    public void warn(Logger log) {
        warn(log, null);
    }

    /** Logs at WARN with {@code error}'s stack trace; a null {@code error} logs none. */
    public void warn(Logger log, Throwable error) {
        if (log.isWarnEnabled()) {
            log.warn(marker(), pattern(), arguments(error));
        }
    }

    public void error(Logger log) {
        error(log, null);
    }

    /** Logs at ERROR with {@code error}'s stack trace; a null {@code error} logs none. */
    public void error(Logger log, Throwable error) {
        if (log.isErrorEnabled()) {
            log.error(marker(), pattern(), arguments(error));
        }
    }

    private Marker marker() {
        return Markers.append("event", name);
    }

    /**
     * The event's name, then one placeholder per field, each rendered as {@code key=value}. The
     * values are arguments, never part of the pattern, so a value holding "{}" is written as is.
     */
    private String pattern() {
        StringBuilder pattern = new StringBuilder(name);
        fields.forEach(field -> pattern.append(" {}"));
        return pattern.toString();
    }

    private Object[] arguments(Throwable error) {
        List<Object> arguments = new ArrayList<>(fields);
        if (error != null) {
            // SLF4J takes a Throwable after the last placeholder's argument as the entry's exception.
            arguments.add(error);
        }
        return arguments.toArray();
    }

    /** A value the JSON writer, which knows no {@code java.time} types, writes as intended. */
    private static Object plain(Object value) {
        return switch (value) {
            case null -> null;
            case String s -> s;
            case Number n -> n;
            case Boolean b -> b;
            case Map<?, ?> map -> {
                Map<String, Object> copy = new LinkedHashMap<>();
                map.forEach((key, entry) -> copy.put(String.valueOf(key), plain(entry)));
                yield copy;
            }
            case Collection<?> items -> items.stream().map(Event::plain).toList();
            default -> value.toString();
        };
    }
}
