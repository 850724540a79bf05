package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScheduleTest {
    private static final ZoneId UTC = ZoneId.of("UTC");
    // 2026: New York springs forward on 8 March at 02:00 EST (07:00Z) and falls back on
    // 1 November at 02:00 EDT (06:00Z); Berlin on 29 March and 25 October, both at 01:00Z.
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static List<Instant> next(String expression, ZoneId zone, String after, int count) {
        Schedule schedule = Schedule.parse(expression, zone);
        List<Instant> instants = new ArrayList<>();
        Instant cursor = Instant.parse(after);
        for (int i = 0; i < count; i++) {
            cursor = schedule.nextInstant(cursor).orElseThrow();
            instants.add(cursor);
        }
        return instants;
    }

    private static List<Instant> instants(String... isoInstants) {
        return java.util.Arrays.stream(isoInstants).map(Instant::parse).toList();
    }

    @Nested
    class Syntax {
        @Test
        void fiveFieldsAreUnixCron() {
            assertEquals(instants("2026-06-01T10:30:00Z", "2026-06-01T11:30:00Z"),
                    next("30 * * * *", UTC, "2026-06-01T10:15:00Z", 2));
        }

        @Test
        void sixFieldsPutSecondsFirst() {
            assertEquals(instants("2026-06-01T12:00:05Z", "2026-06-01T12:00:10Z", "2026-06-01T12:00:15Z"),
                    next("*/5 * * * * *", UTC, "2026-06-01T12:00:03Z", 3));
            assertEquals(instants("2026-06-02T00:00:30Z"), next("30 0 0 * * *", UTC, "2026-06-01T12:00:00Z", 1));
        }

        @Test
        void subSecondStartStillFindsTheNextWholeSecond() {
            assertEquals(instants("2026-06-01T12:00:05Z"), next("*/5 * * * * *", UTC, "2026-06-01T12:00:04.999Z", 1));
        }

        @ParameterizedTest(name = "{0} after 2026-06-01T10:15Z (a Monday) is {1}")
        @CsvSource({
            "@yearly, 2027-01-01T00:00:00Z",
            "@annually, 2027-01-01T00:00:00Z",
            "@monthly, 2026-07-01T00:00:00Z",
            "@weekly, 2026-06-07T00:00:00Z",
            "@daily, 2026-06-02T00:00:00Z",
            "@midnight, 2026-06-02T00:00:00Z",
            "@hourly, 2026-06-01T11:00:00Z",
        })
        void macros(String macro, String expected) {
            assertEquals(instants(expected), next(macro, UTC, "2026-06-01T10:15:00Z", 1));
        }

        @Test
        void dayOfWeekZeroAndSevenAreBothSunday() {
            List<Instant> sundays = instants("2026-06-07T00:00:00Z", "2026-06-14T00:00:00Z");
            assertEquals(sundays, next("0 0 * * 0", UTC, "2026-06-01T00:00:00Z", 2));
            assertEquals(sundays, next("0 0 * * 7", UTC, "2026-06-01T00:00:00Z", 2));
            assertEquals(sundays, next("0 0 0 * * 7", UTC, "2026-06-01T00:00:00Z", 2));
        }

        @Test
        void restrictedDayOfMonthAndDayOfWeekRunOnEither() {
            // The 13th, and every Friday (6 and 20 March 2026 are Fridays; so is the 13th).
            assertEquals(instants("2026-03-06T00:00:00Z", "2026-03-13T00:00:00Z", "2026-03-20T00:00:00Z",
                            "2026-03-27T00:00:00Z", "2026-04-03T00:00:00Z", "2026-04-10T00:00:00Z",
                            "2026-04-13T00:00:00Z"),
                    next("0 0 13 * 5", UTC, "2026-03-01T00:00:00Z", 7));
        }

        @Test
        void aScheduleThatNeverComesIsEmpty() {
            Schedule february30 = Schedule.parse("0 0 30 2 *", UTC);
            assertEquals(Optional.empty(), february30.nextInstant(Instant.parse("2026-01-01T00:00:00Z")));
            assertEquals(Optional.empty(), february30.previousOrSame(Instant.parse("2026-01-01T00:00:00Z")));
        }

        @ParameterizedTest(name = "\"{0}\" is refused: {1}")
        @CsvSource(delimiter = '|', value = {
            "* * *| has 3 fields",
            "* * * * * * *| has 7 fields",
            "''| has 0 fields",
            "60 * * * *| the minute field \"60\" is out of range: a minute is 0-59",
            "0 24 * * *| the hour field \"24\" is out of range: an hour is 0-23",
            "0 0 32 * *| the day-of-month field \"32\" is out of range: a day-of-month is 1-31",
            "0 0 * 13 *| the month field \"13\" is out of range: a month is 1-12",
            "0 0 * * 8| the day-of-week field \"8\" is out of range: a day-of-week is 0-7 (0 and 7 are Sunday)",
            "0 60 * * * *| the minute field \"60\" is out of range: a minute is 0-59",
            "60 0 * * * *| the second field \"60\" is out of range: a second is 0-59",
            "*/0 * * * *| the minute field \"*/0\" has a step of 0: a step is 1-59",
            "5-1 * * * *| the minute field \"5-1\" is a range that runs backwards: write 1-5",
            "1/ * * * *| the minute field \"1/\" has no step after \"/\"",
            "0 0 * JANX *| the month field \"JANX\" cannot be read: use numbers, ranges (1-5), lists (1,15,30),"
                    + " steps (*/15) or *, or JAN-DEC",
            "0 0 L * *| the day-of-month field \"L\" cannot be read",
            "0 0 * * MON#2| the day-of-week field \"MON#2\" cannot be read",
            "@reboot| unknown macro @reboot",
        })
        void badExpressionsSayWhichFieldAndWhyInOurWords(String expression, String reason) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> Schedule.parse(expression, UTC));
            assertTrue(e.getMessage().contains(reason.strip()), e.getMessage());
            for (String libraryWords : List.of("not in range", "invalid chars", "period", "invalid range", "Expression")) {
                assertFalse(e.getMessage().contains(libraryWords), e.getMessage());
            }
        }
    }

    @Nested
    class SpringForward {
        @Test
        void aWallTimeInTheGapRunsOnceWhenTheGapEnds() {
            // 02:30 does not exist on 8 March: it runs at 03:00 EDT (07:00Z), then as usual.
            assertEquals(instants("2026-03-07T07:30:00Z", "2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z"),
                    next("30 2 * * *", NEW_YORK, "2026-03-07T00:00:00Z", 3));
        }

        @Test
        void nextIsInTheJobsZone() {
            ZonedDateTime next = Schedule.parse("30 2 * * *", NEW_YORK).next(Instant.parse("2026-03-08T00:00:00Z"))
                    .orElseThrow();
            assertEquals(ZonedDateTime.parse("2026-03-08T03:00-04:00[America/New_York]"), next);
        }

        @Test
        void hourlyKeepsFiringEveryRealHour() {
            assertEquals(instants("2026-03-08T05:00:00Z", "2026-03-08T06:00:00Z", "2026-03-08T07:00:00Z",
                            "2026-03-08T08:00:00Z"),
                    next("0 * * * *", NEW_YORK, "2026-03-08T04:30:00Z", 4));
        }

        @Test
        void severalGapTimesAndTheGapsEndFoldIntoOneRun() {
            // 02:00 and 02:30 do not exist; with 03:00 they run once, at 07:00Z.
            assertEquals(instants("2026-03-08T06:00:00Z", "2026-03-08T06:30:00Z", "2026-03-08T07:00:00Z",
                            "2026-03-08T07:30:00Z"),
                    next("*/30 * * * *", NEW_YORK, "2026-03-08T05:45:00Z", 4));
        }

        @Test
        void berlinToo() {
            assertEquals(instants("2026-03-28T01:30:00Z", "2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z"),
                    next("30 2 * * *", BERLIN, "2026-03-28T00:00:00Z", 3));
        }

        @Test
        void previousOrSameSeesTheGapRunAtTheGapsEnd() {
            Schedule schedule = Schedule.parse("30 2 * * *", NEW_YORK);
            assertEquals(Optional.of(Instant.parse("2026-03-08T07:00:00Z")),
                    schedule.previousOrSame(Instant.parse("2026-03-08T07:00:00Z")));
            assertEquals(Optional.of(Instant.parse("2026-03-08T07:00:00Z")),
                    schedule.previousOrSame(Instant.parse("2026-03-08T12:00:00Z")));
            assertEquals(Optional.of(Instant.parse("2026-03-07T07:30:00Z")),
                    schedule.previousOrSame(Instant.parse("2026-03-08T06:59:59Z")));
        }
    }

    @Nested
    class FallBack {
        @Test
        void aRepeatedWallTimeRunsOnceAtItsFirstOccurrence() {
            // 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST); only the first runs.
            assertEquals(instants("2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"),
                    next("30 1 * * *", NEW_YORK, "2026-10-31T12:00:00Z", 2));
        }

        @Test
        void aFixedHourScheduleSkipsTheWholeRepeatedHour() {
            assertEquals(instants("2026-11-01T05:00:00Z", "2026-11-01T05:20:00Z", "2026-11-01T05:40:00Z",
                            "2026-11-02T06:00:00Z"),
                    next("*/20 1 * * *", NEW_YORK, "2026-11-01T04:30:00Z", 4));
        }

        @Test
        void startingInsideTheRepeatedHourDoesNotRunItsTimesAgain() {
            assertEquals(instants("2026-11-02T06:30:00Z"), next("30 1 * * *", NEW_YORK, "2026-11-01T06:00:00Z", 1));
        }

        @Test
        void hourlyKeepsFiringEveryRealHour() {
            assertEquals(instants("2026-11-01T04:00:00Z", "2026-11-01T05:00:00Z", "2026-11-01T06:00:00Z",
                            "2026-11-01T07:00:00Z"),
                    next("0 * * * *", NEW_YORK, "2026-11-01T03:30:00Z", 4));
        }

        @Test
        void everyFewSecondsKeepsFiringThroughTheRepeatedHour() {
            assertEquals(instants("2026-11-01T05:59:50Z", "2026-11-01T06:00:00Z", "2026-11-01T06:00:10Z"),
                    next("*/10 * * * * *", NEW_YORK, "2026-11-01T05:59:45Z", 3));
        }

        @Test
        void berlinToo() {
            assertEquals(instants("2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"),
                    next("30 2 * * *", BERLIN, "2026-10-24T12:00:00Z", 2));
        }

        @Test
        void previousOrSameInTheSecondOccurrenceIsTheFirst() {
            Schedule fixed = Schedule.parse("30 1 * * *", NEW_YORK);
            assertEquals(Optional.of(Instant.parse("2026-11-01T05:30:00Z")),
                    fixed.previousOrSame(Instant.parse("2026-11-01T06:45:00Z")));
            Schedule hourly = Schedule.parse("0 * * * *", NEW_YORK);
            assertEquals(Optional.of(Instant.parse("2026-11-01T06:00:00Z")),
                    hourly.previousOrSame(Instant.parse("2026-11-01T06:30:00Z")));
        }
    }

    @Nested
    class NextAndPreviousAgree {
        @ParameterizedTest(name = "{0} in {1}")
        @CsvSource({
            "'30 2 * * *', America/New_York",
            "'*/20 1 * * *', America/New_York",
            "'0 * * * *', America/New_York",
            "'*/15 * * * *', Europe/Berlin",
            "'0 0 1 * * *', Europe/Berlin",
            "'0,30 0-3 * * *', Australia/Lord_Howe",
            "'@daily', UTC",
        })
        void acrossBothChangesOfTheYear(String expression, String zone) {
            Schedule schedule = Schedule.parse(expression, ZoneId.of(zone));
            for (String day : List.of("2026-03-07T00:00:00Z", "2026-03-28T00:00:00Z", "2026-04-04T00:00:00Z",
                    "2026-10-03T00:00:00Z", "2026-10-24T00:00:00Z", "2026-10-31T00:00:00Z")) {
                Instant previous = schedule.nextInstant(Instant.parse(day)).orElseThrow();
                for (int i = 0; i < 60; i++) {
                    Instant next = schedule.nextInstant(previous).orElseThrow();
                    assertTrue(next.isAfter(previous), "instants strictly increase");
                    assertEquals(Optional.of(next), schedule.previousOrSame(next), "previousOrSame of an instant is itself");
                    assertEquals(Optional.of(previous), schedule.previousOrSame(next.minusNanos(1)),
                            "nothing runs between two consecutive instants");
                    previous = next;
                }
            }
        }
    }
}
