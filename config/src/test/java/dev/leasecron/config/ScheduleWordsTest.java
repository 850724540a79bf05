package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.ZoneId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A schedule in words for the dashboard: cron-utils' description, macros by their names' meaning. */
class ScheduleWordsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "* * * * * *      | every second",
        "*/5 * * * * *    | every 5 seconds",
        "* * * * *        | every minute",
        "30 7 * * 1-5     | at 07:30 every day between Monday and Friday",
        "@daily           | every day at midnight",
        "@HOURLY          | every hour, on the hour",
        "@weekly          | at midnight every Sunday",
    })
    void describesTheScheduleInEnglish(String expression, String words) {
        assertEquals(words, Schedule.parse(expression, ZoneId.of("UTC")).inWords());
    }
}
