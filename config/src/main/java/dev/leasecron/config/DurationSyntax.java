package dev.leasecron.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads durations as people write them in config: {@code 30s}, {@code 5m}, {@code 1h30m},
 * {@code 2d}, {@code 500ms}, or ISO-8601 ({@code PT30S}). A bare number is refused: nobody can tell
 * whether {@code 30} meant seconds or minutes.
 */
public final class DurationSyntax {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|d|h|m|s)");
    private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:ms|d|h|m|s))+");

    private DurationSyntax() {}

    /** @throws IllegalArgumentException with a message fit for the user */
    public static Duration parse(String text) {
        String trimmed = text.strip();
        if (trimmed.startsWith("P") || trimmed.startsWith("p") || trimmed.startsWith("-P")) {
            try {
                return Duration.parse(trimmed);
            } catch (DateTimeParseException e) {
                throw invalid(text);
            }
        }
        if (!WHOLE.matcher(trimmed).matches()) {
            throw invalid(text);
        }
        Duration total = Duration.ZERO;
        Matcher part = PART.matcher(trimmed);
        try {
            while (part.find()) {
                long amount = Long.parseLong(part.group(1));
                total = total.plus(switch (part.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                });
            }
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("duration \"" + text + "\" is too long");
        }
        return total;
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("invalid duration \"" + text
                + "\": write a number with a unit (ms, s, m, h, d) such as 30s, 5m or 1h30m, or ISO-8601 such as PT30S");
    }
}
