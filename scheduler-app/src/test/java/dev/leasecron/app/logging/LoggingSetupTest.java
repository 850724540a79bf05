package dev.leasecron.app.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

class LoggingSetupTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Logger log = LoggerFactory.getLogger("dev.leasecron.app.scheduler.Rounds");

    @AfterEach
    void restoreDefaultLogging() {
        LoggingSetup.configure(LogFormat.JSON);
    }

    @Test
    void eventIsOneJsonLineWithItsFieldsAtTopLevel() throws IOException {
        LoggingSetup.configure(LogFormat.JSON);

        List<String> lines = stdoutOf(() -> Event.of(Events.ROUND_END)
                .with("job", "backup")
                .with("instant", Instant.parse("2026-12-02T15:04:05Z"))
                .with("term", 7L)
                .with("rerun", false)
                .with("error", null)
                .info(log));

        assertEquals(1, lines.size(), lines::toString);
        JsonNode entry = JSON.readTree(lines.getFirst());
        assertTrue(entry.get("@timestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"),
                entry::toString);
        assertEquals("INFO", entry.get("level").asText());
        assertEquals("dev.leasecron.app.scheduler.Rounds", entry.get("logger").asText());
        assertEquals(Thread.currentThread().getName(), entry.get("thread").asText());
        assertEquals("round.end job=backup instant=2026-12-02T15:04:05Z term=7 rerun=false",
                entry.get("message").asText());
        assertEquals("round.end", entry.get("event").asText());
        assertEquals("backup", entry.get("job").asText());
        assertEquals("2026-12-02T15:04:05Z", entry.get("instant").asText());
        assertEquals(7, entry.get("term").asLong());
        assertFalse(entry.get("rerun").asBoolean(true));
        assertFalse(entry.has("error"), "null fields are left out");
        assertFalse(entry.has("@version"));
        assertFalse(entry.has("level_value"));
    }

    @Test
    void slf4jKeyValuePairsAreTopLevelFieldsToo() throws IOException {
        // The lease module logs through SLF4J's fluent API alone: its entries must read like the app's.
        LoggingSetup.configure(LogFormat.JSON);

        List<String> lines = stdoutOf(() -> log.atWarn().addKeyValue("event", "lease.lost")
                .addKeyValue("lease", "cron:backup").addKeyValue("term", 3L).log("lease lost"));

        JsonNode entry = JSON.readTree(lines.getFirst());
        assertEquals("lease.lost", entry.get("event").asText(), entry::toString);
        assertEquals("cron:backup", entry.get("lease").asText());
        assertEquals(3, entry.get("term").asLong());
    }

    @Test
    void logbackXmlWritesTheSameFieldsAsTheJsonSetup() throws Exception {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        // The shipped file by name: auto-configuration would prefer a logback-test.xml on the test
        // class path (the lease module's test classes carry one when the reactor runs only to `test`).
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(LoggingSetupTest.class.getResource("/logback.xml"));

        List<String> lines = stdoutOf(() -> {
            LoggerFactory.getLogger("org.jooq.Constants").info("banner");
            Event.of(Events.DAEMON_STARTED).with("jobs", 2).info(log);
        });

        assertEquals(1, lines.size(), lines::toString);
        JsonNode entry = JSON.readTree(lines.getFirst());
        assertEquals(List.of("@timestamp", "message", "logger", "thread", "level", "event", "jobs"),
                toList(entry.fieldNames()));
        assertTrue(entry.get("@timestamp").asText().endsWith("Z"), entry::toString);
    }

    @Test
    void exceptionGoesToStackTraceAndMdcToTopLevel() throws IOException {
        LoggingSetup.configure(LogFormat.JSON);

        List<String> lines = stdoutOf(() -> {
            MDC.put("job", "backup");
            try {
                Event.of(Events.LEASE_LOST).with("term", 3).warn(log, new IllegalStateException("renew {} refused"));
            } finally {
                MDC.remove("job");
            }
        });

        JsonNode entry = JSON.readTree(lines.getFirst());
        assertEquals("WARN", entry.get("level").asText());
        assertEquals("lease.lost term=3", entry.get("message").asText());
        assertEquals("backup", entry.get("job").asText());
        assertTrue(entry.get("stack_trace").asText().startsWith(
                "java.lang.IllegalStateException: renew {} refused\n\tat "), entry.get("stack_trace").asText());
    }

    @Test
    void mapsAndCollectionsBecomeJsonObjectsAndArrays() throws IOException {
        LoggingSetup.configure(LogFormat.JSON);

        List<String> lines = stdoutOf(() -> Event.of(Events.PLUGINS_LOADED)
                .with("sources", Map.of("hello", "plugins/hello.jar"))
                .with("skipped", List.of(Instant.parse("2026-12-02T15:05:00Z")))
                .info(log));

        JsonNode entry = JSON.readTree(lines.getFirst());
        assertEquals("plugins/hello.jar", entry.get("sources").get("hello").asText());
        assertEquals("2026-12-02T15:05:00Z", entry.get("skipped").get(0).asText());
        assertEquals("plugins.loaded sources={hello=plugins/hello.jar} skipped=[2026-12-02T15:05:00Z]",
                entry.get("message").asText());
    }

    @Test
    void valueHoldingPlaceholderIsWrittenAsItIs() throws IOException {
        LoggingSetup.configure(LogFormat.JSON);

        List<String> lines = stdoutOf(() -> Event.of(Events.ROUND_END).with("error", "bad {} value").with("job", "x")
                .error(log));

        assertEquals("round.end error=bad {} value job=x", JSON.readTree(lines.getFirst()).get("message").asText());
    }

    @Test
    void eventNamesAreDottedLowerCaseWordsAndFieldsDoNotShadowTheEntrys() throws IllegalAccessException {
        assertThrows(IllegalArgumentException.class, () -> Event.of("Round End {}"));
        assertThrows(IllegalArgumentException.class, () -> Event.of(""));
        assertThrows(IllegalArgumentException.class, () -> Event.of(Events.ROUND_END).with("message", "x"));
        for (Field name : Events.class.getFields()) {
            Event.of((String) name.get(null));
        }
    }

    @Test
    void librariesLogOnlyWarningsAndJooqStaysQuiet() {
        LoggingSetup.configure(LogFormat.JSON);

        List<String> lines = stdoutOf(() -> {
            LoggerFactory.getLogger("com.zaxxer.hikari.pool.HikariPool").info("pool started");
            LoggerFactory.getLogger("org.jooq.Constants").info("banner");
            LoggerFactory.getLogger("com.zaxxer.hikari.pool.HikariPool").warn("connection is not available");
        });

        assertEquals(1, lines.size(), lines::toString);
        assertTrue(lines.getFirst().contains("connection is not available"));
        assertEquals("true", System.getProperty("org.jooq.no-logo"));
        assertEquals("true", System.getProperty("org.jooq.no-tips"));
    }

    @Test
    void consoleFormatIsOneReadableLine() {
        LoggingSetup.configure(LogFormat.CONSOLE);

        List<String> lines = stdoutOf(() -> {
            MDC.put("job", "backup");
            try {
                Event.of(Events.ROUND_START).with("term", 2).info(log);
            } finally {
                MDC.remove("job");
            }
            log.info("no mdc");
        });

        assertEquals(2, lines.size(), lines::toString);
        assertTrue(lines.get(0).matches("\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z INFO  \\[.+] dev\\.leasecron\\.app\\.scheduler\\.Rounds"
                + " - round\\.start term=2 \\{job=backup}"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" - no mdc"), lines.get(1));
    }

    @Test
    void theDaemonLogsToStdoutAndTheOtherCommandsToStderrWhereTheirAnswerIsNot() throws IOException {
        LoggingSetup.configureForCommand(LogFormat.JSON);
        Printed command = printed(() -> Event.of(Events.JOB_SUSPENDED).with("job", "backup").info(log));
        assertEquals(List.of(), command.out());
        assertEquals(1, command.err().size(), command.err()::toString);
        assertEquals("job.suspended", JSON.readTree(command.err().getFirst()).get("event").asText());

        LoggingSetup.configure(LogFormat.JSON);
        Printed daemon = printed(() -> Event.of(Events.ROUND_END).with("job", "backup").info(log));
        assertEquals(1, daemon.out().size(), daemon.out()::toString);
        assertEquals(List.of(), daemon.err());
    }

    @Test
    void formatNamesAreCaseInsensitiveAndUnknownOnesAreRefused() {
        assertEquals(LogFormat.CONSOLE, LogFormat.parse(" Console "));
        assertEquals(LogFormat.JSON, LogFormat.parse("json"));
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> LogFormat.parse("xml"));
        assertEquals("unknown log format \"xml\"; use json or console", failure.getMessage());
    }

    private static List<String> toList(Iterator<String> names) {
        List<String> list = new ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }

    /** The lines {@code logging} writes to stdout; the daemon's appender writes to the current System.out. */
    private static List<String> stdoutOf(Runnable logging) {
        return printed(logging).out();
    }

    /** The lines {@code logging} printed on stdout and on stderr. */
    private static Printed printed(Runnable logging) {
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            logging.run();
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
        return new Printed(out.toString(StandardCharsets.UTF_8).lines().toList(),
                err.toString(StandardCharsets.UTF_8).lines().toList());
    }

    private record Printed(List<String> out, List<String> err) {}
}
