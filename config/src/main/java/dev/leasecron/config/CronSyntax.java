package dev.leasecron.config;

import com.cronutils.descriptor.CronDescriptor;
import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.field.CronFieldName;
import com.cronutils.model.field.expression.Always;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns a schedule as users write it into a cron-utils {@link ExecutionTime}.
 *
 * <ul>
 *   <li>5 fields: Unix cron (minute hour day-of-month month day-of-week).
 *   <li>6 fields: the same with a seconds field first. cron-utils' Unix definition refuses six
 *       fields and its Quartz one changes meanings (day-of-week 1-7 from Sunday, {@code ?}), so the
 *       six-field definition here is the Unix one plus seconds: day-of-week 0-7 with 0 and 7 both
 *       Sunday, and when both day fields are restricted a day matching either runs (Vixie cron).
 *   <li>Macros {@code @yearly @annually @monthly @weekly @daily @midnight @hourly}, expanded here
 *       because cron-utils' Unix definition has none.
 * </ul>
 */
final class CronSyntax {
    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final CronParser UNIX_WITH_SECONDS = new CronParser(unixWithSeconds());

    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");

    private static final Set<String> EVERY_HOUR = Set.of("*", "*/1", "0-23", "0-23/1");

    private CronSyntax() {}

    /**
     * Parses {@code expression}.
     *
     * @throws IllegalArgumentException with a message fit for the user
     */
    static Parsed parse(String expression) {
        String trimmed = expression.strip();
        if (trimmed.startsWith("@")) {
            String expanded = MACROS.get(trimmed.toLowerCase(Locale.ROOT));
            if (expanded == null) {
                throw new IllegalArgumentException("unknown macro " + trimmed
                        + "; known: @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly");
            }
            trimmed = expanded;
        }
        String[] fieldTexts = trimmed.isEmpty() ? new String[0] : trimmed.split("\\s+");
        int fields = fieldTexts.length;
        CronParser parser = switch (fields) {
            case 5 -> UNIX;
            case 6 -> UNIX_WITH_SECONDS;
            default -> throw new IllegalArgumentException("has " + fields + " fields; expected 5 (minute hour"
                    + " day-of-month month day-of-week), 6 (seconds first) or a macro such as @daily");
        };
        Cron cron;
        try {
            cron = parser.parse(trimmed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(CronFieldMessages.explain(fieldTexts, parser, e), e);
        }
        return new Parsed(ExecutionTime.forCron(cron), firesEveryHour(cron), inWords(cron, expression.strip()));
    }

    /**
     * The schedule in English words, as cron-utils describes it; a macro as its name says. The
     * expression itself when cron-utils cannot describe it: words are for people, never parsed.
     */
    private static String inWords(Cron cron, String written) {
        if (written.startsWith("@")) {
            return switch (written.toLowerCase(Locale.ROOT)) {
                case "@yearly", "@annually" -> "at midnight on January 1";
                case "@monthly" -> "at midnight on the first day of every month";
                case "@weekly" -> "at midnight every Sunday";
                case "@daily", "@midnight" -> "every day at midnight";
                default -> "every hour, on the hour";
            };
        }
        try {
            return CronDescriptor.instance(Locale.ENGLISH).describe(cron);
        } catch (RuntimeException e) {
            return written;
        }
    }

    /**
     * Whether the hour field takes every hour. Such schedules are intervals (every N minutes or
     * seconds), and keep running through a repeated hour when clocks go back.
     */
    private static boolean firesEveryHour(Cron cron) {
        var hours = cron.retrieve(CronFieldName.HOUR).getExpression();
        return hours instanceof Always || EVERY_HOUR.contains(hours.asString());
    }

    private static CronDefinition unixWithSeconds() {
        return CronDefinitionBuilder.defineCron()
                .withSeconds().withValidRange(0, 59).withStrictRange().and()
                .withMinutes().withValidRange(0, 59).withStrictRange().and()
                .withHours().withValidRange(0, 23).withStrictRange().and()
                .withDayOfMonth().withValidRange(1, 31).withStrictRange().and()
                .withMonth().withValidRange(1, 12).withStrictRange().and()
                .withDayOfWeek().withValidRange(0, 7).withMondayDoWValue(1).withIntMapping(7, 0).withStrictRange().and()
                .instance();
    }

    /**
     * A parsed schedule: {@code wallClock} finds matching wall-clock times (evaluate it in UTC, where
     * no clock jumps); {@code firesEveryHour} says whether it runs in every hour of the day.
     */
    record Parsed(ExecutionTime wallClock, boolean firesEveryHour, String words) {}
}
