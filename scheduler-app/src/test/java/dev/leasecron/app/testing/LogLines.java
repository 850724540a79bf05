package dev.leasecron.app.testing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.logstash.logback.encoder.LogstashEncoder;
import org.slf4j.LoggerFactory;

/**
 * Every line the process logs while open (any logger, at the levels configured), as the JSON encoder
 * writes it: for checking what reaches the logs, e.g. that a secret never does.
 */
public final class LogLines implements AutoCloseable {
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger root;
    private final LogstashEncoder encoder = new LogstashEncoder();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent e) {
            lines.add(new String(encoder.encode(e), StandardCharsets.UTF_8));
        }
    };

    private LogLines() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        encoder.setContext(context);
        encoder.start();
        appender.setContext(context);
        appender.setName("log-lines");
        appender.start();
        root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(appender);
    }

    public static LogLines capture() {
        return new LogLines();
    }

    /** The lines logged so far, oldest first. */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        appender.stop();
        encoder.stop();
    }
}
