package dev.leasecron.app.testing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.MDC;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** An SLF4J logger that keeps every formatted message, at every level, for assertions. */
public final class RecordingLogger extends AbstractLogger {
    private static final long serialVersionUID = 1L;

    /** One message as logged, with the MDC of the thread that logged it. */
    public record Entry(String message, Map<String, String> mdc) {}

    private final transient List<Entry> entries = new CopyOnWriteArrayList<>();

    public RecordingLogger(String name) {
        this.name = name;
    }

    /** The messages logged so far, formatted, oldest first. */
    public List<String> messages() {
        return entries.stream().map(Entry::message).toList();
    }

    /** The messages logged so far with their threads' MDC, oldest first. */
    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments,
            Throwable throwable) {
        Map<String, String> mdc = MDC.getCopyOfContextMap();
        entries.add(new Entry(MessageFormatter.basicArrayFormat(pattern, arguments), mdc == null ? Map.of() : Map.copyOf(mdc)));
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    public boolean isTraceEnabled() {
        return true;
    }

    @Override
    public boolean isTraceEnabled(Marker marker) {
        return true;
    }

    @Override
    public boolean isDebugEnabled() {
        return true;
    }

    @Override
    public boolean isDebugEnabled(Marker marker) {
        return true;
    }

    @Override
    public boolean isInfoEnabled() {
        return true;
    }

    @Override
    public boolean isInfoEnabled(Marker marker) {
        return true;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isWarnEnabled(Marker marker) {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled(Marker marker) {
        return true;
    }
}
