package dev.leasecron.config;

import java.util.List;
import java.util.Map;

/**
 * The daemon's say on a job's {@code type} and {@code params}: the config module knows no plugins,
 * so whoever loads them passes a checker to {@link ConfigLoader}. Its problems are reported like any
 * other error, at the job's {@code type} line or at the param's line.
 */
@FunctionalInterface
public interface JobTypeChecker {
    /**
     * The problems with a job of {@code type} and {@code params}; empty when a plugin provides the type
     * and accepts the params. Called only for jobs whose type and params are otherwise well-formed.
     */
    List<TypeProblem> check(String type, Map<String, Object> params);

    /** Accepts every type: for tools that load no plugins. */
    static JobTypeChecker acceptAny() {
        return (type, params) -> List.of();
    }
}
