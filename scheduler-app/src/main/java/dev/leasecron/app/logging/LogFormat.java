package dev.leasecron.app.logging;

import java.util.Locale;
import java.util.Map;

/** How log entries are written: {@link #JSON} for collectors, {@link #CONSOLE} for people. */
public enum LogFormat {
    /** One JSON object per line (the default). */
    JSON,
    /** One human-readable line per entry. */
    CONSOLE;

    /** The environment variable that picks the format when no flag does. */
    public static final String ENVIRONMENT_VARIABLE = "LEASECRON_LOG_FORMAT";

    /**
     * The format named {@code name}, in any case.
     *
     * @throws IllegalArgumentException the name is neither {@code json} nor {@code console}
     */
    public static LogFormat parse(String name) {
        String normalized = name == null ? "" : name.strip().toUpperCase(Locale.ROOT);
        for (LogFormat format : values()) {
            if (format.name().equals(normalized)) {
                return format;
            }
        }
        throw new IllegalArgumentException("unknown log format \"" + name + "\"; use json or console");
    }

    /**
     * The format {@code LEASECRON_LOG_FORMAT} names in {@code environment}, or {@link #JSON} when it
     * is unset or blank.
     *
     * @throws IllegalArgumentException the variable names no format
     */
    public static LogFormat fromEnvironment(Map<String, String> environment) {
        String value = environment.get(ENVIRONMENT_VARIABLE);
        return value == null || value.isBlank() ? JSON : parse(value);
    }

    /** The name users write: {@code json} or {@code console}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
