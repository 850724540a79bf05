package dev.leasecron.config;

import com.cronutils.parser.CronParser;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says, in the project's words, which field of a cron expression cron-utils refused and why.
 *
 * <p>cron-utils names neither the field nor the expression part ({@code "period 0 not in range
 * [0, 59]"}), so each field is parsed alone (the others {@code *}) to find the one at fault; its
 * reason is then reworded from the handful of messages cron-utils gives. A message this class does
 * not know becomes a general one: the library's wording never reaches the user.
 */
final class CronFieldMessages {
    private static final List<String> FIELDS = List.of("minute", "hour", "day-of-month", "month", "day-of-week");
    private static final List<String> FIELDS_WITH_SECONDS =
            List.of("second", "minute", "hour", "day-of-month", "month", "day-of-week");

    private static final Pattern VALUE_OUT_OF_RANGE = Pattern.compile("(?i)value (-?\\d+) not in range \\[(\\d+), (\\d+)]");
    private static final Pattern STEP_OUT_OF_RANGE = Pattern.compile("(?i)period (-?\\d+) not in range \\[(\\d+), (\\d+)]");
    private static final Pattern BACKWARDS_RANGE = Pattern.compile("(?i)invalid range! \\[(-?\\d+),(-?\\d+)]");
    private static final Pattern MISSING_STEP = Pattern.compile("(?i)missing steps for expression.*");

    private CronFieldMessages() {}

    /**
     * What is wrong with {@code fields} (5 or 6, as split by the caller), which {@code parser}
     * refused with {@code refusal}.
     */
    static String explain(String[] fields, CronParser parser, IllegalArgumentException refusal) {
        List<String> names = fields.length == FIELDS_WITH_SECONDS.size() ? FIELDS_WITH_SECONDS : FIELDS;
        for (int i = 0; i < fields.length; i++) {
            Optional<String> reason = refusalOfAlone(fields, i, parser);
            if (reason.isPresent()) {
                return "the " + names.get(i) + " field \"" + fields[i] + "\" " + reword(reason.get(), names.get(i));
            }
        }
        // Only a combination of fields is refused, which cron-utils does not explain either.
        return "cannot be read: " + SYNTAX;
    }

    private static Optional<String> refusalOfAlone(String[] fields, int index, CronParser parser) {
        String[] alone = Collections.nCopies(fields.length, "*").toArray(String[]::new);
        alone[index] = fields[index];
        try {
            parser.parse(String.join(" ", alone));
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(String.valueOf(e.getMessage()));
        }
    }

    private static final String SYNTAX = "use numbers, ranges (1-5), lists (1,15,30), steps (*/15) or *";

    private static String reword(String reason, String field) {
        Matcher m = VALUE_OUT_OF_RANGE.matcher(reason);
        if (m.find()) {
            return "is out of range: " + (field.equals("hour") ? "an " : "a ") + field + " is " + m.group(2) + "-" + m.group(3)
                    + (field.equals("day-of-week") ? " (0 and 7 are Sunday)" : "");
        }
        m = STEP_OUT_OF_RANGE.matcher(reason);
        if (m.find()) {
            return "has a step of " + m.group(1) + ": a step is 1-" + m.group(3);
        }
        m = BACKWARDS_RANGE.matcher(reason);
        if (m.find()) {
            return "is a range that runs backwards: write " + m.group(2) + "-" + m.group(1);
        }
        if (MISSING_STEP.matcher(reason).find()) {
            return "has no step after \"/\"";
        }
        String names = switch (field) {
            case "month" -> ", or JAN-DEC";
            case "day-of-week" -> ", or SUN-SAT";
            default -> "";
        };
        return "cannot be read: " + SYNTAX + names;
    }
}
