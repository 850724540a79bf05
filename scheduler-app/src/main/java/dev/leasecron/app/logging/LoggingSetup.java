package dev.leasecron.app.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import java.io.PrintStream;
import java.util.List;
import java.util.function.Supplier;
import net.logstash.logback.encoder.LogstashEncoder;
import net.logstash.logback.fieldnames.LogstashFieldNames;
import net.logstash.logback.stacktrace.ShortenedThrowableConverter;
import org.slf4j.LoggerFactory;

/**
 * Configures Logback, replacing what {@code logback.xml} set up: entries at INFO and above go in
 * the chosen {@link LogFormat} to stdout for the daemon, to stderr for the other commands (whose
 * stdout is their answer, read by people and scripts), encoded and written by one thread
 * ({@link GroupWriteAppender}); the libraries the daemon uses log only WARN and
 * above; jOOQ prints neither its banner, nor its tips, nor its warning about the database's version.
 *
 * <p>In JSON, each line is one object with {@code @timestamp} (ISO-8601 UTC), {@code level},
 * {@code logger}, {@code thread}, {@code message}, {@code stack_trace} when there is an exception,
 * and MDC entries and {@link Event} fields at the top level. The CLI calls {@link #configureForCommand}
 * first thing, before anything logs, and {@code run} then {@link #configure}.
 */
public final class LoggingSetup {
    /** Loggers of libraries, which log only WARN and above: their INFO is noise in a daemon's log. */
    private static final List<String> LIBRARY_LOGGERS = List.of("com.zaxxer.hikari", "org.jooq", "com.cronutils",
            "io.micrometer", "org.sqlite", "org.postgresql", "org.mariadb.jdbc", "com.mysql", "com.fasterxml",
            "org.testcontainers", "org.eclipse.jetty", "io.javalin");

    /**
     * jOOQ's check of the database's version against the versions its open-source dialects support:
     * PostgreSQL 15 and MariaDB 10.11 draw a "Version mismatch" warning at every start. The check is
     * about the whole dialect; leasecron's few statements are tested on those very versions (see the
     * lease package documentation), so the warning would only alarm a user running one of them.
     * Silenced, rather than rendered for an older version: the open-source edition has one dialect
     * per database, the newest.
     */
    static final String JOOQ_VERSION_CHECK = "org.jooq.impl.DefaultExecuteContext.logVersionSupport";

    /** The console format: UTC time, level, thread, logger, message, MDC when there is any. */
    private static final String CONSOLE_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSS'Z',UTC} %-5level [%thread] %logger{36} - %msg"
            + "%replace( {%mdc}){' \\{\\}', ''}%n";

    /** Milliseconds, as log collectors expect; in UTC, 'X' writes "Z". */
    private static final String TIMESTAMP_PATTERN = "yyyy-MM-dd'T'HH:mm:ss.SSSX";
    private static final int MAX_STACK_TRACE_CHARS = 16_384;

    private LoggingSetup() {}

    /** Sends all logging to stdout in {@code format}, from now on: the daemon's. */
    public static void configure(LogFormat format) {
        configure(format, () -> System.out);
    }

    /** Sends all logging to stderr in {@code format}, from now on: a command's, whose stdout is its answer. */
    public static void configureForCommand(LogFormat format) {
        configure(format, () -> System.err);
    }

    private static void configure(LogFormat format, Supplier<PrintStream> to) {
        // jOOQ reads these when its first class loads, so they must be set before any database work.
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");

        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        GroupWriteAppender appender = new GroupWriteAppender();
        appender.setContext(context);
        appender.setName("console");
        appender.setTarget(to);
        appender.setEncoder(encoder(format, context));
        appender.start();

        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(appender);
        LIBRARY_LOGGERS.forEach(name -> context.getLogger(name).setLevel(Level.WARN));
        context.getLogger(JOOQ_VERSION_CHECK).setLevel(Level.ERROR);
    }

    private static Encoder<ILoggingEvent> encoder(LogFormat format, LoggerContext context) {
        return switch (format) {
            case JSON -> json(context);
            case CONSOLE -> console(context);
        };
    }

    private static Encoder<ILoggingEvent> json(LoggerContext context) {
        LogstashEncoder encoder = new LogstashEncoder();
        encoder.setContext(context);
        LogstashFieldNames names = encoder.getFieldNames();
        names.setLogger("logger");
        names.setThread("thread");
        names.setVersion(LogstashFieldNames.IGNORE_FIELD_INDICATOR);
        names.setLevelValue(LogstashFieldNames.IGNORE_FIELD_INDICATOR);
        encoder.setTimeZone("UTC");
        encoder.setTimestampPattern(TIMESTAMP_PATTERN);
        encoder.setIncludeContext(false);
        ShortenedThrowableConverter stackTrace = new ShortenedThrowableConverter();
        stackTrace.setMaxLength(MAX_STACK_TRACE_CHARS);
        encoder.setThrowableConverter(stackTrace);
        encoder.start();
        return encoder;
    }

    private static Encoder<ILoggingEvent> console(LoggerContext context) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(CONSOLE_PATTERN);
        encoder.start();
        return encoder;
    }
}
