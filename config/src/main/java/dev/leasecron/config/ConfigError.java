package dev.leasecron.config;

import java.util.Objects;

/**
 * One mistake in a jobs file, placed where the user has to fix it.
 *
 * <p>{@link #toString()} gives the compiler-style form {@code FILE:LINE:COLUMN: KEY.PATH: message}
 * that editors and CI logs link to. A problem with the file as a whole (it cannot be read) has no
 * position: {@code line} and {@code column} are 0 and the form is {@code FILE: message}.
 *
 * @param file the file as the user named it
 * @param line 1-based line, or 0 when the problem has no position
 * @param column 1-based column, or 0 when the problem has no position
 * @param keyPath where in the document, e.g. {@code jobs[2].schedule}; empty for the document itself
 * @param message what is wrong, in words a user can act on
 */
public record ConfigError(String file, int line, int column, String keyPath, String message) {
    public ConfigError {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(keyPath, "keyPath");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(file);
        if (line > 0) {
            out.append(':').append(line).append(':').append(column);
        }
        out.append(": ");
        if (!keyPath.isEmpty()) {
            out.append(keyPath).append(": ");
        }
        return out.append(message).toString();
    }
}
