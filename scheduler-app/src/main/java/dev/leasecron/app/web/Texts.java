package dev.leasecron.app.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** How the pages write times, durations and job links. */
public final class Texts {
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ZONED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx");

    private Texts() {}

    /** {@code 2026-12-06 18:50:05Z}: whole seconds, as schedules have no finer instants. */
    public static String utc(Instant instant) {
        return UTC.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }

    /** The instant's wall time in {@code zone} with its offset: {@code 2026-12-06 19:50:05 +01:00}. */
    public static String inZone(Instant instant, ZoneId zone) {
        return ZONED.format(instant.truncatedTo(ChronoUnit.SECONDS).atZone(zone));
    }

    /** {@code 850 ms}, {@code 12.3 s}, {@code 4 min 2 s}, {@code 3 h 5 min}. */
    public static String duration(Duration duration) {
        long ms = Math.max(0, duration.toMillis());
        if (ms < 1_000) {
            return ms + " ms";
        }
        if (ms < 60_000) {
            return String.format("%.1f s", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 3600) {
            return (s / 60) + " min" + (s % 60 == 0 ? "" : " " + (s % 60) + " s");
        }
        return (s / 3600) + " h" + (s % 3600 / 60 == 0 ? "" : " " + (s % 3600 / 60) + " min");
    }

    /** {@code in 4 s}, {@code 3 min ago}: a distance from now, to the second. */
    public static String relative(Instant instant, Instant now) {
        Duration d = Duration.between(now, instant);
        String size = duration(d.abs().truncatedTo(ChronoUnit.SECONDS)).replace(".0 s", " s");
        if (d.abs().toMillis() < 1000) {
            return "now";
        }
        return d.isNegative() ? size + " ago" : "in " + size;
    }

    /**
     * The path of a job's page. A job name is free text (any printable character): each byte is
     * percent-encoded but for letters, digits and {@code -._~}, and {@code /} is kept so that the
     * route's catch-all parameter gets the name whole (an encoded slash is refused by the server).
     */
    public static String jobPath(String name) {
        return "/jobs/" + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20").replace("%2F", "/")
                .replace("*", "%2A");
    }
}
