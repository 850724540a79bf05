package dev.leasecron.config;

import java.util.Objects;
import java.util.Optional;

/**
 * One thing a {@link JobTypeChecker} found wrong.
 *
 * @param param the top-level params key it is about, or empty when it is about the type itself
 * @param message what is wrong, e.g. {@code no plugin provides type "shel" (known: http, shell)}
 */
public record TypeProblem(Optional<String> param, String message) {
    public TypeProblem {
        Objects.requireNonNull(param, "param");
        Objects.requireNonNull(message, "message");
    }

    /** A problem with the type (reported at the {@code type} key). */
    public static TypeProblem ofType(String message) {
        return new TypeProblem(Optional.empty(), message);
    }

    /** A problem with {@code params.<param>} (reported at that key, or at {@code params} if absent). */
    public static TypeProblem ofParam(String param, String message) {
        return new TypeProblem(Optional.of(param), message);
    }
}
