package dev.leasecron.app.cli;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads an ISO-8601 instant option, refusing anything else with an example instead of a parser's exception. */
final class IsoInstantConverter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new TypeConversionException(
                    "\"" + value + "\" is not an ISO-8601 instant such as 2026-03-08T00:00:00Z");
        }
    }
}
