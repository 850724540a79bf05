package dev.leasecron.app.cli;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** How the CLI prints instants: in the job's zone with its abbreviation (so EST and EDT show), and in UTC. */
final class Instants {
    private static final DateTimeFormatter IN_ZONE = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss zzz", Locale.US);

    private Instants() {}

    static String inZone(ZonedDateTime time) {
        return IN_ZONE.format(time);
    }

    static String utc(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
