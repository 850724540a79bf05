package dev.leasecron.app.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.encoder.Encoder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.logstash.logback.encoder.LogstashEncoder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GroupWriteAppenderTest {
    private static final int THREADS = 200;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private final LoggerContext context = new LoggerContext();
    private PrintStream original;

    @BeforeEach
    void captureStdout() {
        context.setMDCAdapter(new LogbackMDCAdapter());
        context.start();
        original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStdout() {
        context.stop();
        System.setOut(original);
    }

    @Test
    void eachLineIsWrittenBeforeItsCallReturnsWhicheverThreadLogs() throws Exception {
        Logger log = logger(json());
        AtomicInteger notYetWritten = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            String marker = "entry-" + i + "-end";
            threads.add(Thread.ofVirtual().start(() -> {
                log.info(marker);
                if (!stdout().contains(marker)) {
                    notYetWritten.incrementAndGet();
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(0, notYetWritten.get(), "lines not yet on stdout when their call returned");
        List<String> lines = stdout().lines().toList();
        assertEquals(THREADS, lines.size());
        lines.forEach(l -> assertTrue(l.startsWith("{") && l.endsWith("}"), "a whole JSON line: " + l));
    }

    @Test
    void theEncoderRunsOnOneThreadWhateverThreadLogs() throws Exception {
        Set<String> encodingThreads = ConcurrentHashMap.newKeySet();
        PatternLayoutEncoder recording = new PatternLayoutEncoder() {
            @Override
            public byte[] encode(ILoggingEvent event) {
                encodingThreads.add(Thread.currentThread().getName());
                return super.encode(event);
            }
        };
        recording.setContext(context);
        recording.setPattern("%thread %msg%n");
        recording.start();
        Logger log = logger(recording);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            String message = "entry " + i;
            threads.add(Thread.ofVirtual().name("round " + i).start(() -> log.info(message)));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(Set.of("log-writer"), encodingThreads);
        // The name of the thread that logged, not the writer's, is in the line.
        assertTrue(stdout().lines().allMatch(l -> l.matches("round (\\d+) entry \\1")), stdout());
    }

    @Test
    void anInterruptedThreadStillHasItsLineWrittenAndKeepsItsInterrupt() throws Exception {
        Logger log = logger(json());
        boolean[] stillInterrupted = new boolean[1];
        Thread t = Thread.ofVirtual().unstarted(() -> {
            Thread.currentThread().interrupt();
            log.info("cut short");
            stillInterrupted[0] = Thread.currentThread().isInterrupted();
        });
        t.start();
        t.join();
        assertTrue(stdout().contains("cut short"));
        assertTrue(stillInterrupted[0]);
    }

    @Test
    void aLineLoggedAfterTheAppenderStoppedIsNotLost() {
        GroupWriteAppender appender = appender(json());
        Logger log = context.getLogger("test");
        log.addAppender(appender);
        appender.stop();
        // A call that found the appender started just before it stopped (Logback's reset, while others log).
        appender.append(new LoggingEvent(Logger.class.getName(), log, Level.INFO, "late", null, null));
        assertTrue(stdout().contains("late"), stdout());
    }

    private String stdout() {
        return captured.toString(StandardCharsets.UTF_8);
    }

    private Logger logger(Encoder<ILoggingEvent> encoder) {
        Logger log = context.getLogger("test");
        log.addAppender(appender(encoder));
        return log;
    }

    private GroupWriteAppender appender(Encoder<ILoggingEvent> encoder) {
        GroupWriteAppender appender = new GroupWriteAppender();
        appender.setContext(context);
        appender.setEncoder(encoder);
        appender.start();
        return appender;
    }

    private LogstashEncoder json() {
        LogstashEncoder encoder = new LogstashEncoder();
        encoder.setContext(context);
        encoder.start();
        return encoder;
    }
}
