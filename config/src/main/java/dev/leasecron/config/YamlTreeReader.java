package dev.leasecron.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.fasterxml.jackson.dataformat.yaml.snakeyaml.error.MarkedYAMLException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads YAML text into a {@link YamlNode} tree with the position of every key and value, and
 * interpolates every scalar (keys included) on the way.
 *
 * <p>Reading goes through Jackson's streaming {@link YAMLParser} because its token locations are
 * what makes {@code file:line:column} errors possible; a data-binding read would lose them. Mistakes
 * that do not stop reading (a duplicate key, an unset variable) are collected and reading goes on;
 * a syntax error stops it, since nothing after it can be trusted.
 */
final class YamlTreeReader {
    // "key:" with nothing after it reads as null, not as an empty string, so "params:" means no params.
    private static final YAMLFactory FACTORY = new InMemoryYamlFactory(YAMLFactory.builder()
            .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .loaderOptions(loaderOptions()));

    private final String source;
    private final Interpolator interpolator;
    private final ErrorCollector errors;

    YamlTreeReader(String source, Interpolator interpolator, ErrorCollector errors) {
        this.source = source;
        this.interpolator = interpolator;
        this.errors = errors;
    }

    /** The document's root, or empty when the text is empty or not YAML (with the error recorded). */
    // Jackson's deprecated MarkedYAMLException is its view of SnakeYAML's problem mark (the exact
    // line and column of a syntax error).
    @SuppressWarnings("deprecation")
    Optional<YamlNode> read() {
        try (YAMLParser parser = FACTORY.createParser(source)) {
            if (parser.nextToken() == null) {
                return Optional.empty();
            }
            YamlNode root = readValue(parser, "");
            if (parser.nextToken() != null) {
                errors.add(position(parser.currentTokenLocation()), "",
                        "a second YAML document (after \"---\"); a jobs file holds exactly one");
            }
            return Optional.of(root);
        } catch (MarkedYAMLException e) {
            var mark = e.getProblemMark();
            String context = e.getContext() == null ? "" : e.getContext() + ": ";
            errors.add(new Position(mark.getLine() + 1, mark.getColumn() + 1, mark.getIndex()), "",
                    "not valid YAML: " + context + oneLine(e.getProblem()));
            return Optional.empty();
        } catch (JacksonException e) {
            JsonLocation at = e.getLocation();
            Position position = at == null ? new Position(1, 1, 0) : position(at);
            errors.add(position, "", "not valid YAML: " + oneLine(e.getOriginalMessage()));
            return Optional.empty();
        } catch (IOException e) {
            // Reading from a String does no I/O; Jackson's signature still declares it.
            throw new IllegalStateException(e);
        }
    }

    // SnakeYAML stops at 3 MiB of code points by default; any file within the size limit may be read.
    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(ConfigLoader.MAX_FILE_BYTES);
        return options;
    }

    private YamlNode readValue(YAMLParser parser, String path) throws IOException {
        Position at = position(parser.currentTokenLocation());
        if (parser.isCurrentAlias()) {
            errors.add(at, path, "YAML aliases (*" + parser.getText() + ") are not supported; write the value out");
            errors.markExplained(at);
            return new YamlNode.Scalar("", YamlNode.ScalarType.NULL, null, at);
        }
        return switch (parser.currentToken()) {
            case START_OBJECT -> readMapping(parser, path, at);
            case START_ARRAY -> readSequence(parser, path, at);
            case VALUE_NULL -> new YamlNode.Scalar("", YamlNode.ScalarType.NULL, null, at);
            case VALUE_TRUE, VALUE_FALSE ->
                    new YamlNode.Scalar(parser.getText(), YamlNode.ScalarType.BOOLEAN, parser.getBooleanValue(), at);
            case VALUE_NUMBER_INT ->
                    new YamlNode.Scalar(parser.getText(), YamlNode.ScalarType.INTEGER, wholeNumber(parser), at);
            case VALUE_NUMBER_FLOAT ->
                    new YamlNode.Scalar(parser.getText(), YamlNode.ScalarType.DECIMAL, parser.getDoubleValue(), at);
            default -> {
                String text = interpolate(parser.getText(), at, path);
                yield new YamlNode.Scalar(text, YamlNode.ScalarType.STRING, text, at);
            }
        };
    }

    private YamlNode readMapping(YAMLParser parser, String path, Position at) throws IOException {
        List<YamlNode.Entry> entries = new ArrayList<>();
        Map<String, Position> seen = new HashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            Position keyAt = position(parser.currentTokenLocation());
            String key = interpolate(parser.getText(), keyAt, path);
            String keyPath = path.isEmpty() ? key : path + "." + key;
            parser.nextToken();
            YamlNode value = readValue(parser, keyPath);
            Position first = seen.putIfAbsent(key, keyAt);
            if (first != null) {
                errors.add(keyAt, keyPath, "duplicate key (first written at line " + first.line() + ")");
            } else {
                entries.add(new YamlNode.Entry(key, keyAt, value));
            }
        }
        return new YamlNode.Mapping(List.copyOf(entries), at);
    }

    private YamlNode readSequence(YAMLParser parser, String path, Position at) throws IOException {
        List<YamlNode> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(readValue(parser, path + "[" + items.size() + "]"));
        }
        return new YamlNode.Sequence(List.copyOf(items), at);
    }

    // Params promise Long (or BigInteger when it does not fit), whatever width the parser chose.
    private static Number wholeNumber(YAMLParser parser) throws IOException {
        Number number = parser.getNumberValue();
        return number instanceof Integer || number instanceof Short || number instanceof Byte ? number.longValue() : number;
    }

    private String interpolate(String text, Position at, String path) {
        Interpolator.Result result = interpolator.interpolate(text);
        // Problems come in text order, so each search goes on from where the last one was found:
        // a scalar full of bad references is still read in one pass.
        Position searchFrom = at;
        for (Interpolator.Problem problem : result.problems()) {
            Position found = referencePosition(text, problem.index(), searchFrom);
            errors.add(found, path, SecretMasking.isSecretPath(path) ? problem.messageWithoutText() : problem.message());
            errors.markExplained(at);
            searchFrom = found;
        }
        return result.text();
    }

    /**
     * Finds the reference in the source at or after {@code from}, so the error points at the
     * {@code ${} itself even inside a long or multi-line scalar. If escapes in a quoted scalar hide
     * it, {@code from} will do.
     */
    private Position referencePosition(String text, int index, Position from) {
        int end = text.indexOf('}', index);
        String reference = text.substring(index, end < 0 ? text.length() : end);
        int found = source.indexOf(reference, from.offset());
        return found < 0 ? from : from.advancedTo(source, found);
    }

    private static Position position(JsonLocation location) {
        return new Position(location.getLineNr(), location.getColumnNr(), (int) location.getCharOffset());
    }

    private static String oneLine(String message) {
        return message == null ? "unreadable" : message.strip().replaceAll("\\s*\\n\\s*", " ");
    }
}
