package dev.leasecron.faults.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a replica's stdout: one JSON object per line. Lines that are not JSON (a JVM warning, a line
 * cut by kill -9) are not events and are passed over.
 */
public final class LogReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private LogReader() {}

    public static List<LogEvent> read(String process, Path file) throws IOException {
        List<LogEvent> events = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                parse(process, line).ifPresent(events::add);
            }
        }
        return events;
    }

    static Optional<LogEvent> parse(String process, String line) {
        if (!line.startsWith("{")) {
            return Optional.empty();
        }
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (!node.hasNonNull("event") || !node.hasNonNull("@timestamp")) {
            return Optional.empty();
        }
        Map<String, String> fields = new HashMap<>();
        node.properties().forEach(f -> fields.put(f.getKey(), f.getValue().isValueNode() ? f.getValue().asText()
                : f.getValue().toString()));
        long at = OffsetDateTime.parse(node.get("@timestamp").asText()).toInstant().toEpochMilli();
        return Optional.of(new LogEvent(process, at, node.get("event").asText(), fields));
    }
}
