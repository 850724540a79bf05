package dev.leasecron.app.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class InstantSpanTest {
    private static final Instant T = Instant.parse("2026-12-02T10:00:00Z");
    private final Instants everySecond = new EveryPeriod(Duration.ofSeconds(1));

    @Test
    void spanIsTheInstantsAfterTheStartUpToTheLastIncluded() {
        InstantSpan span = InstantSpan.of(everySecond, T, T.plusMillis(3500)).orElseThrow();
        assertEquals(T.plusSeconds(1), span.first());
        assertEquals(T.plusSeconds(3), span.last());
        assertEquals(3, span.count());
        assertEquals("3", span.countText());
    }

    @Test
    void noInstantInTheRangeIsNoSpan() {
        assertTrue(InstantSpan.of(everySecond, T, T.plusMillis(999)).isEmpty());
    }

    @Test
    void countingStopsAtTheLimitAndSaysSo() {
        Instant monthLater = T.plus(Duration.ofDays(30));
        InstantSpan span = InstantSpan.of(everySecond, T, monthLater).orElseThrow();
        assertEquals(InstantSpan.COUNT_LIMIT, span.count());
        assertTrue(span.countCapped());
        assertEquals(monthLater, span.last());
        assertEquals("at least " + InstantSpan.COUNT_LIMIT, span.countText());
        assertFalse(InstantSpan.of(everySecond, T, T.plusSeconds(InstantSpan.COUNT_LIMIT)).orElseThrow().countCapped());
    }
}
