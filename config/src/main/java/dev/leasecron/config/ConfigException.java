package dev.leasecron.config;

import java.util.List;

/**
 * A jobs file that cannot be used, with every mistake found in it (not just the first).
 *
 * <p>This is a user's mistake, not a program failure: report {@link #errors()} one per line and
 * leave the stack trace out.
 */
public final class ConfigException extends Exception {
    private final transient List<ConfigError> errors;

    public ConfigException(List<ConfigError> errors) {
        super(summary(errors), null, false, false);
        this.errors = List.copyOf(errors);
    }

    /** The mistakes in the order they appear in the file; never empty. */
    public List<ConfigError> errors() {
        return errors;
    }

    private static String summary(List<ConfigError> errors) {
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one error");
        }
        StringBuilder out = new StringBuilder();
        for (ConfigError error : errors) {
            if (!out.isEmpty()) {
                out.append('\n');
            }
            out.append(error);
        }
        return out.toString();
    }
}
