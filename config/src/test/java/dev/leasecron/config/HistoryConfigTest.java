package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code history:} section: defaults, values, and errors naming file, line and key. */
class HistoryConfigTest {
    private static final ConfigLoader LOADER = new ConfigLoader(Map.of(), JobTypeChecker.acceptAny());

    private static JobsConfig parse(String yaml) throws ConfigException {
        return LOADER.parse("jobs.yaml", yaml);
    }

    private static List<String> errors(String yaml) {
        return assertThrows(ConfigException.class, () -> parse(yaml)).errors().stream().map(ConfigError::toString).toList();
    }

    @Test
    void aFileWithoutTheSectionKeepsTheHistoryWithItsDefaults() throws Exception {
        HistorySpec h = parse("jobs: []\n").history();
        assertTrue(h.enabled());
        assertEquals(Duration.ofDays(14), h.retain());
        assertEquals(1_000, h.maxRowsPerJob());
    }

    @Test
    void readsEveryKey() throws Exception {
        HistorySpec h = parse("history:\n  enabled: false\n  retain: 7d\n  maxRowsPerJob: 50\njobs: []\n").history();
        assertFalse(h.enabled());
        assertEquals(Duration.ofDays(7), h.retain());
        assertEquals(50, h.maxRowsPerJob());
    }

    @Test
    void badValuesNameTheFileLineAndKey() {
        List<String> found = errors("history:\n  enabled: maybe\n  retain: soon\n  maxRowsPerJob: 0\n  keep: 3\njobs: []\n");
        assertEquals(4, found.size(), found.toString());
        assertTrue(found.stream().anyMatch(e -> e.startsWith("jobs.yaml:2") && e.contains("history.enabled")), found.toString());
        assertTrue(found.stream().anyMatch(e -> e.startsWith("jobs.yaml:3") && e.contains("history.retain")
                && e.contains("invalid duration")), found.toString());
        assertTrue(found.stream().anyMatch(e -> e.startsWith("jobs.yaml:4") && e.contains("history.maxRowsPerJob")), found.toString());
        assertTrue(found.stream().anyMatch(e -> e.startsWith("jobs.yaml:5") && e.contains("keep")), found.toString());
    }

    @Test
    void aRetentionShorterThanAnHourIsRefused() {
        List<String> found = errors("history:\n  retain: 10m\njobs: []\n");
        assertEquals(1, found.size());
        assertTrue(found.getFirst().startsWith("jobs.yaml:2") && found.getFirst().contains("at least 1h"), found.toString());
    }

    @Test
    void aSectionThatIsNotAMappingIsAnError() {
        List<String> found = errors("history: yes\njobs: []\n");
        assertTrue(found.getFirst().startsWith("jobs.yaml:1") && found.getFirst().contains("history"), found.toString());
    }
}
