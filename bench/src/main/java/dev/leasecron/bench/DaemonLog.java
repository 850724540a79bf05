package dev.leasecron.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a daemon's JSON log says happened: every {@code round.start} as a fire (job, instant, the
 * daemon's own {@code fire_delay_ms}, measured by the database clock), and how many lines of every other
 * event at WARN or ERROR it wrote, with the instants the {@code instant.skipped} and {@code instant.missed}
 * lines count.
 */
final class DaemonLog {
    record Fire(int job, long instantMs, long delayMillis, boolean rerun) {}

    final List<Fire> fires = new ArrayList<>();
    /** Lines per event name, WARN and ERROR only (the round lines are INFO), logged within the window. */
    final Map<String, Long> warnings = new TreeMap<>();
    long skippedInstants;
    long missedInstants;
    long lines;

    /**
     * Reads {@code log}: the rounds of the instants between {@code fromMs} and {@code toMs}, and the WARN
     * and ERROR events whose {@code @timestamp} lies between them (the replica's clock, on the
     * database's machine or near it).
     */
    static DaemonLog read(Path log, long fromMs, long toMs) throws IOException {
        DaemonLog d = new DaemonLog();
        ObjectMapper json = new ObjectMapper();
        try (BufferedReader in = Files.newBufferedReader(log)) {
            String line;
            while ((line = in.readLine()) != null) {
                d.lines++;
                if (line.isEmpty() || line.charAt(0) != '{') {
                    continue;
                }
                boolean roundStart = line.contains("\"event\":\"round.start\"");
                boolean warning = line.contains("\"level\":\"WARN\"") || line.contains("\"level\":\"ERROR\"");
                if (!roundStart && !warning) {
                    continue;
                }
                JsonNode n = json.readTree(line);
                String event = n.path("event").asText("(no event)");
                if (roundStart) {
                    long instant = Instant.parse(n.path("instant").asText()).toEpochMilli();
                    if (instant < fromMs || instant > toMs) {
                        continue;
                    }
                    String job = n.path("job").asText();
                    d.fires.add(new Fire(Integer.parseInt(job.substring(job.indexOf('-') + 1)), instant,
                            n.path("fire_delay_ms").asLong(), n.path("rerun").asBoolean()));
                } else {
                    long at = Instant.parse(n.path("@timestamp").asText()).toEpochMilli();
                    if (at < fromMs || at > toMs) {
                        continue;
                    }
                    d.warnings.merge(event, 1L, Long::sum);
                    switch (event) {
                        case "instant.skipped" -> d.skippedInstants += n.path("count").asLong();
                        case "instant.missed" -> d.missedInstants += n.path("count").asLong();
                        default -> { }
                    }
                }
            }
        }
        return d;
    }
}
