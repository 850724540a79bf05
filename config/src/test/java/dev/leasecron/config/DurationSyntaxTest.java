package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationSyntaxTest {
    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "30s, PT30S",
        "5m, PT5M",
        "1h30m, PT1H30M",
        "2d, PT48H",
        "500ms, PT0.5S",
        "1h0m5s, PT1H5S",
        "PT30S, PT30S",
        "pt2m, PT2M",
        "0s, PT0S",
    })
    void readsUnitsAndIso(String text, String expected) {
        assertEquals(Duration.parse(expected), DurationSyntax.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"30", "", "5 minutes", "1.5h", "s", "PT", "-5s", "1w"})
    void refusesWhatItCannotReadUnambiguously(String text) {
        assertThrows(IllegalArgumentException.class, () -> DurationSyntax.parse(text));
    }
}
