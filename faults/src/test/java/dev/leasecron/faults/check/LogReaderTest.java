package dev.leasecron.faults.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LogReaderTest {

    @Test
    void readsAnEventLineOfTheDaemon() {
        LogEvent e = LogReader.parse("r1.2", "{\"@timestamp\":\"2026-12-02T17:32:58.594+01:00\",\"level\":\"INFO\","
                + "\"event\":\"round.start\",\"job\":\"tick\",\"instant\":\"2026-12-02T16:32:58Z\",\"term\":19,"
                + "\"rerun\":true}").orElseThrow();
        assertEquals("r1.2", e.process());
        assertEquals("round.start", e.event());
        assertEquals(19, e.term());
        assertTrue(e.rerun());
        assertEquals(java.time.Instant.parse("2026-12-02T16:32:58.594Z").toEpochMilli(), e.atMs());
    }

    @Test
    void passesOverLinesThatAreNotEvents() {
        assertTrue(LogReader.parse("r1.1", "WARNING: A restricted method in java.lang.System has been called").isEmpty());
        assertTrue(LogReader.parse("r1.1", "{\"@timestamp\":\"2026-12-02T16:32:58Z\",\"event\":\"round.st").isEmpty());
        assertTrue(LogReader.parse("r1.1", "{\"@timestamp\":\"2026-12-02T16:32:58Z\",\"message\":\"no event\"}").isEmpty());
    }
}
