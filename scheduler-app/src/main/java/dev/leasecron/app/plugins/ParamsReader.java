package dev.leasecron.app.plugins;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a job's {@code params} and collects every problem as one message naming its key
 * ({@code "params.url: required"}) instead of stopping at the first, as {@link
 * dev.leasecron.jobs.Job#checkParams} promises. A read that finds a problem returns an empty value,
 * so a caller reads everything, then looks at {@link #problems()} before using what it read.
 *
 * <p>Values must have the type asked for: a YAML {@code 1.10} read as a string would silently
 * become {@code "1.1"}, so the user is told to quote it instead.
 */
final class ParamsReader {
    private final Map<String, Object> params;
    private final Set<String> knownKeys = new LinkedHashSet<>();
    private final List<String> problems = new ArrayList<>();

    ParamsReader(Map<String, Object> params) {
        this.params = params == null ? Map.of() : params;
    }

    /** The string at {@code key}, which must be present and not blank. */
    Optional<String> requiredString(String key) {
        Optional<String> value = string(key);
        if (value.isEmpty() && !has(key)) {
            problem(key, "required");
        }
        return value;
    }

    /** The string at {@code key} if present; a present value must be a non-blank string. */
    Optional<String> string(String key) {
        Object value = raw(key);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String text)) {
            problem(key, "must be a string, not " + describe(value) + " (quote it)");
            return Optional.empty();
        }
        if (text.isBlank()) {
            problem(key, "must not be blank");
            return Optional.empty();
        }
        return Optional.of(text);
    }

    /** The value at {@code key} as it is, null when absent, for keys that take several shapes. */
    Object raw(String key) {
        knownKeys.add(key);
        return params.get(key);
    }

    /** The mapping of strings to strings at {@code key}; empty when absent. */
    Map<String, String> stringMap(String key) {
        return stringMap(key, false);
    }

    /**
     * As {@link #stringMap}, for values that are secrets (HTTP headers carry API keys and tokens):
     * a problem names the value's kind, never the value, whatever its type.
     */
    Map<String, String> secretStringMap(String key) {
        return stringMap(key, true);
    }

    private Map<String, String> stringMap(String key, boolean secretValues) {
        Object value = raw(key);
        if (value == null) {
            return Map.of();
        }
        if (!(value instanceof Map<?, ?> map)) {
            problem(key, "must be a mapping of names to strings, not " + describe(value));
            return Map.of();
        }
        Map<String, String> strings = new LinkedHashMap<>();
        map.forEach((name, entry) -> {
            if (!(entry instanceof String text)) {
                problem(key + "." + name, "must be a string, not " + (secretValues ? kind(entry) : describe(entry))
                        + " (quote it)");
            } else {
                strings.put(String.valueOf(name), text);
            }
        });
        return strings;
    }

    /** Records a problem with {@code key}, e.g. a value of the right type that is still unusable. */
    void problem(String key, String message) {
        problems.add("params." + key + ": " + message);
    }

    /** Every problem found so far, plus one for each key that no read asked for (a typo, usually). */
    List<String> problems() {
        List<String> all = new ArrayList<>(problems);
        for (String key : params.keySet()) {
            if (!knownKeys.contains(key)) {
                all.add("params." + key + ": unknown key; known keys: " + String.join(", ", knownKeys));
            }
        }
        return List.copyOf(all);
    }

    /**
     * Fails when {@link #problems()} is not empty: a round whose params are unusable fails at once,
     * with the same messages {@code validate} would have shown.
     */
    void requireValid() throws JobFailedException {
        List<String> all = problems();
        if (!all.isEmpty()) {
            throw new JobFailedException("unusable params: " + String.join("; ", all));
        }
    }

    private boolean has(String key) {
        return params.get(key) != null;
    }

    /** What {@code value} is, without its value: for secrets. */
    static String kind(Object value) {
        return switch (value) {
            case null -> "nothing";
            case Map<?, ?> m -> "a mapping";
            case List<?> l -> "a list";
            case Number n -> "a number";
            case Boolean b -> "a boolean";
            default -> "a " + value.getClass().getSimpleName();
        };
    }

    static String describe(Object value) {
        return switch (value) {
            case null -> "nothing";
            case Map<?, ?> m -> "a mapping";
            case List<?> l -> "a list";
            case Number n -> "the number " + n;
            case Boolean b -> "the boolean " + b;
            default -> "a " + value.getClass().getSimpleName();
        };
    }
}
