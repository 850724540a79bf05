package dev.leasecron.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Gathers every mistake found in one file, so the user sees all of them in one run. */
final class ErrorCollector {
    private final String file;
    private final List<ConfigError> errors = new ArrayList<>();
    private final Set<Position> explained = new HashSet<>();

    ErrorCollector(String file) {
        this.file = file;
    }

    void add(Position position, String keyPath, String message) {
        if (!explained.contains(position)) {
            errors.add(new ConfigError(file, position.line(), position.column(), keyPath, message));
        }
    }

    /**
     * Declares the value at {@code position} already explained by an error (an unset variable, an
     * alias): later errors there could only be its consequences, such as "must not be empty", and
     * are dropped.
     */
    void markExplained(Position position) {
        explained.add(position);
    }

    void addWithoutPosition(String message) {
        errors.add(new ConfigError(file, 0, 0, "", message));
    }

    boolean isEmpty() {
        return errors.isEmpty();
    }

    /** The errors in file order, which is the order a user fixes them in. */
    List<ConfigError> sorted() {
        return errors.stream()
                .sorted(Comparator.comparingInt(ConfigError::line).thenComparingInt(ConfigError::column))
                .toList();
    }

    ConfigException toException() {
        return new ConfigException(sorted());
    }
}
