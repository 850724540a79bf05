package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A schedule answers from the instants it found exactly as a fresh evaluation would: asked the way a
 * scheduler asks in a round (the next instant, the one that has come, those overrun), and at random
 * moments around both daylight-saving changes of 2026.
 */
class ScheduleKnownInstantsTest {
    private static final Instant BERLIN_SPRING = Instant.parse("2026-03-29T01:00:00Z");
    private static final Instant NEW_YORK_FALL = Instant.parse("2026-11-01T06:00:00Z");

    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource(delimiter = '|', value = {
        "* * * * * *     | UTC",
        "*/7 * * * * *   | Europe/Berlin",
        "*/5 * * * *     | America/New_York",
        "30 1,2 * * *    | America/New_York",
        "30 2 * * *      | Europe/Berlin",
        "@hourly         | America/New_York",
        "0 0 29 2 *      | UTC",
    })
    void answersLikeAFreshEvaluation(String expression, String zoneId) {
        ZoneId zone = ZoneId.of(zoneId);
        Schedule remembering = Schedule.parse(expression, zone);
        Random random = new Random(expression.hashCode());
        for (Instant around : new Instant[] {BERLIN_SPRING, NEW_YORK_FALL}) {
            Instant cursor = around.minusSeconds(3 * 3600);
            for (int round = 0; round < 150; round++) {
                Optional<Instant> next = remembering.nextInstant(cursor);
                assertEquals(fresh(expression, zone).nextInstant(cursor), next, "next after " + cursor);
                if (next.isEmpty()) {
                    break;
                }
                Instant slot = next.get();
                // What a round asks: the next instant again, the one after it, and the one that has
                // come a little after its instant (or far after, when it overran several).
                Instant later = slot.plusMillis(random.nextInt(3) == 0 ? random.nextInt(4 * 3600_000) : random.nextInt(900));
                Instant at = random.nextBoolean() ? slot : later;
                assertEquals(fresh(expression, zone).nextInstant(slot), remembering.nextInstant(slot), "next after " + slot);
                assertEquals(fresh(expression, zone).previousOrSame(at), remembering.previousOrSame(at), "at or before " + at);
                Instant anywhere = around.plusMillis(random.nextLong(-4 * 3600_000L, 4 * 3600_000L));
                assertEquals(fresh(expression, zone).nextInstant(anywhere), remembering.nextInstant(anywhere), "next after " + anywhere);
                // Just found the instants after a moment that is no instant: what came before them is unknown.
                Instant justAfter = anywhere.plusMillis(1);
                assertEquals(fresh(expression, zone).previousOrSame(justAfter), remembering.previousOrSame(justAfter),
                        "at or before " + justAfter);
                Instant elsewhere = around.plusMillis(random.nextLong(-4 * 3600_000L, 4 * 3600_000L));
                assertEquals(fresh(expression, zone).previousOrSame(elsewhere), remembering.previousOrSame(elsewhere),
                        "at or before " + elsewhere);
                cursor = random.nextInt(5) == 0 ? later : slot;
            }
        }
    }

    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource(delimiter = '|', value = {"*/3 * * * * * | UTC", "*/20 * * * * | America/New_York"})
    void walkingOnAndLookingBackAnswersLikeAFreshEvaluation(String expression, String zoneId) {
        ZoneId zone = ZoneId.of(zoneId);
        Schedule remembering = Schedule.parse(expression, zone);
        Instant start = NEW_YORK_FALL.minusSeconds(3600);
        Instant cursor = start;
        for (int i = 0; i < 3 * Schedule.RUN_LENGTH; i++) {
            cursor = remembering.nextInstant(cursor).orElseThrow();
        }
        for (Instant t = cursor; t.isAfter(start); t = t.minusMillis(997)) {
            assertEquals(fresh(expression, zone).nextInstant(t), remembering.nextInstant(t), "next after " + t);
            assertEquals(fresh(expression, zone).previousOrSame(t), remembering.previousOrSame(t), "at or before " + t);
        }
    }

    private static Schedule fresh(String expression, ZoneId zone) {
        return Schedule.parse(expression, zone);
    }
}
