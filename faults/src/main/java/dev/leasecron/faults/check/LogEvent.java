package dev.leasecron.faults.check;

import java.util.Map;
import java.util.Optional;

/**
 * One JSON log line of a replica process, with the fields the checker reads.
 *
 * @param process which process wrote it (a replica and its start count, e.g. {@code r2.1})
 * @param atMs the entry's timestamp by that process's clock, which may be skewed: compared only with
 *     other entries of the same process
 * @param event the {@code event} field
 * @param fields the other top-level fields, as text
 */
public record LogEvent(String process, long atMs, String event, Map<String, String> fields) {

    public Optional<String> field(String name) {
        return Optional.ofNullable(fields.get(name));
    }

    public String job() {
        return fields.getOrDefault("job", "");
    }

    public boolean rerun() {
        return Boolean.parseBoolean(fields.get("rerun"));
    }

    public long term() {
        return Long.parseLong(fields.getOrDefault("term", "-1"));
    }
}
