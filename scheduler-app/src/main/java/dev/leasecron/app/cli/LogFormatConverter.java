package dev.leasecron.app.cli;

import dev.leasecron.app.logging.LogFormat;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --log-format}, so an unknown format is a usage error naming the formats, not a stack trace. */
final class LogFormatConverter implements ITypeConverter<LogFormat> {
    @Override
    public LogFormat convert(String value) {
        try {
            return LogFormat.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
