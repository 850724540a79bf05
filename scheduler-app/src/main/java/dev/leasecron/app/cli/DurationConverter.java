package dev.leasecron.app.cli;

import dev.leasecron.config.DurationSyntax;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a duration option as the jobs file writes durations ({@code 90s}, {@code 24h}, {@code 7d}, {@code PT30S}). */
final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            return DurationSyntax.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
