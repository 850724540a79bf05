package dev.leasecron.app.scheduler;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.LoggerFactory;

/**
 * The structured entries the scheduler ({@code leasecron.scheduler}) and its leases
 * ({@code leasecron.lease}) log while open, kept for assertions; safe to read while rounds log.
 */
final class LogCapture implements AutoCloseable {
    static final String SCHEDULER = "leasecron.scheduler";
    static final String LEASE = "leasecron.lease";

    private final Queue<ILoggingEvent> entries = new ConcurrentLinkedQueue<>();
    private final List<Logger> loggers;
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent e) {
            e.prepareForDeferredProcessing();
            entries.add(e);
        }
    };

    private LogCapture() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        appender.setContext(context);
        appender.setName("log-capture");
        appender.start();
        loggers = List.of(context.getLogger(SCHEDULER), context.getLogger(LEASE));
        loggers.forEach(l -> l.addAppender(appender));
    }

    static LogCapture start() {
        return new LogCapture();
    }

    /** Every entry with this {@code event}, oldest first. */
    List<ILoggingEvent> all(String event) {
        return entries.stream().filter(e -> kv(e, "event").equals(event)).toList();
    }

    /**
     * The entries with this {@code event} about job {@code job}: named by the job, or by its lease
     * ({@code cron:} and the job's name), as the lease's own entries name it.
     */
    List<ILoggingEvent> of(String event, String job) {
        return all(event).stream()
                .filter(e -> kv(e, "job").equals(job) || kv(e, "lease").equals("cron:" + job))
                .toList();
    }

    /** {@link #of} logged by {@code logger}. */
    List<ILoggingEvent> of(String event, String job, String logger) {
        return of(event, job).stream().filter(e -> e.getLoggerName().equals(logger)).toList();
    }

    /** The value of {@code key} in {@code e}'s key-value pairs, as text; empty when absent. */
    static String kv(ILoggingEvent e, String key) {
        return e.getKeyValuePairs() == null ? "" : e.getKeyValuePairs().stream()
                .filter(p -> p.key.equals(key)).map(p -> Objects.toString(p.value)).findFirst().orElse("");
    }

    /** Whether {@code e} carries a throwable of class {@code type} anywhere along its causes. */
    static boolean carries(ILoggingEvent e, Class<? extends Throwable> type) {
        for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
            if (t.getClassName().equals(type.getName())) {
                return true;
            }
        }
        return false;
    }

    /** All entries, one per line, for failure messages. */
    String dump(String job) {
        StringBuilder b = new StringBuilder();
        entries.stream().filter(e -> kv(e, "job").equals(job) || kv(e, "lease").equals("cron:" + job))
                .forEach(e -> b.append('\n').append(kv(e, "event")).append(": ").append(e.getFormattedMessage()));
        return b.toString();
    }

    @Override
    public void close() {
        loggers.forEach(l -> l.detachAppender(appender));
        appender.stop();
    }
}
