package dev.leasecron.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads the keys of one YAML mapping into typed values. Every problem (unknown key, wrong type,
 * missing key, bad value) is recorded at the key's or value's position with its full key path, and
 * the getter returns empty, so binding carries on and the user gets every error in one run.
 */
final class FieldReader {
    private final YamlNode.Mapping mapping;
    private final String path;
    private final ErrorCollector errors;

    private FieldReader(YamlNode.Mapping mapping, String path, ErrorCollector errors) {
        this.mapping = mapping;
        this.path = path;
        this.errors = errors;
    }

    /**
     * A reader over {@code node}, which must be a mapping whose keys are all in {@code allowed};
     * empty (with the error recorded) if it is not a mapping. Unknown keys are reported here.
     */
    static Optional<FieldReader> of(YamlNode node, String path, ErrorCollector errors, List<String> allowed) {
        if (!(node instanceof YamlNode.Mapping mapping)) {
            errors.add(node.position(), path, "expected a mapping, found " + node.kind());
            return Optional.empty();
        }
        for (YamlNode.Entry entry : mapping.entries()) {
            if (!allowed.contains(entry.key())) {
                errors.add(entry.keyPosition(), childPath(path, entry.key()),
                        "unknown key \"" + entry.key() + "\" (known here: " + String.join(", ", allowed) + ")");
            }
        }
        return Optional.of(new FieldReader(mapping, path, errors));
    }

    String path() {
        return path;
    }

    Position position() {
        return mapping.position();
    }

    String pathOf(String key) {
        return childPath(path, key);
    }

    /** The value under {@code key}, if the key is written (even as null). */
    Optional<YamlNode> node(String key) {
        return mapping.entry(key).map(YamlNode.Entry::value);
    }

    /** Where {@code key}'s value is, or the mapping itself when the key is absent. */
    Position positionOf(String key) {
        return node(key).map(YamlNode::position).orElse(mapping.position());
    }

    /** A non-empty text value; a missing or empty one is an error. */
    Optional<String> requiredString(String key) {
        if (node(key).isEmpty()) {
            errors.add(mapping.position(), path, "missing required key \"" + key + "\"");
            return Optional.empty();
        }
        return string(key).filter(value -> {
            if (value.isBlank()) {
                errors.add(positionOf(key), pathOf(key), "must not be empty");
                return false;
            }
            return true;
        });
    }

    /** A text value; any scalar counts ({@code name: 2024} is the name "2024"). */
    Optional<String> string(String key) {
        return scalar(key, "a string").flatMap(scalar -> {
            if (scalar.isNull()) {
                errors.add(scalar.position(), pathOf(key), "expected a string, found " + scalar.kind());
                return Optional.empty();
            }
            return Optional.of(scalar.text());
        });
    }

    /**
     * A secret: any scalar, whatever YAML typed it ({@code 12345} is the secret "12345"); an absent
     * key is {@link Secret#none()}. Problems
     * name the kind of value, never the value; a control character is refused, since no header
     * or driver could carry it.
     */
    Optional<Secret> secret(String key) {
        Optional<YamlNode> node = node(key);
        if (node.isEmpty()) {
            return Optional.of(Secret.none());
        }
        if (!(node.get() instanceof YamlNode.Scalar scalar) || scalar.isNull()) {
            errors.add(node.get().position(), pathOf(key), "expected a string, found " + node.get().kind());
            return Optional.empty();
        }
        if (scalar.text().chars().anyMatch(Character::isISOControl)) {
            errors.add(scalar.position(), pathOf(key), "holds a control character; a secret must be printable text");
            return Optional.empty();
        }
        return Optional.of(Secret.of(scalar.text()));
    }

    /** A whole number in {@code [min, max]}; a quoted or interpolated number counts. */
    Optional<Integer> integer(String key, int min, int max) {
        return scalar(key, "a whole number").flatMap(scalar -> {
            Optional<Long> number = switch (scalar.type()) {
                case INTEGER -> Optional.of(((Number) scalar.value()).longValue());
                case STRING -> parseLong(scalar.text().strip());
                default -> Optional.empty();
            };
            if (number.isEmpty()) {
                errors.add(scalar.position(), pathOf(key), "expected a whole number, found " + describe(scalar));
                return Optional.empty();
            }
            long value = number.get();
            if (value < min || value > max) {
                errors.add(scalar.position(), pathOf(key), "must be between " + min + " and " + max + ", was " + value);
                return Optional.empty();
            }
            return Optional.of((int) value);
        });
    }

    /** {@code true} or {@code false}; a quoted or interpolated one counts. */
    Optional<Boolean> bool(String key) {
        return scalar(key, "true or false").flatMap(scalar -> {
            if (scalar.type() == YamlNode.ScalarType.BOOLEAN) {
                return Optional.of((Boolean) scalar.value());
            }
            String text = scalar.text().strip();
            if (scalar.type() == YamlNode.ScalarType.STRING && (text.equals("true") || text.equals("false"))) {
                return Optional.of(Boolean.valueOf(text));
            }
            errors.add(scalar.position(), pathOf(key), "expected true or false, found " + describe(scalar));
            return Optional.empty();
        });
    }

    /** One of {@code choices}, keyed by how it is written in YAML. */
    <T> Optional<T> choice(String key, Map<String, T> choices) {
        return string(key).flatMap(text -> {
            T value = choices.get(text);
            if (value == null) {
                errors.add(positionOf(key), pathOf(key),
                        "invalid value \"" + text + "\": expected one of " + String.join(", ", choices.keySet()));
            }
            return Optional.ofNullable(value);
        });
    }

    /** A text value turned into {@code T} by {@code parse}, whose IllegalArgumentException becomes the error. */
    <T> Optional<T> parsed(String key, Function<String, T> parse) {
        return string(key).flatMap(text -> {
            try {
                return Optional.of(parse.apply(text));
            } catch (IllegalArgumentException e) {
                errors.add(positionOf(key), pathOf(key), e.getMessage());
                return Optional.empty();
            }
        });
    }

    /** A nested mapping with its own allowed keys. */
    Optional<FieldReader> mapping(String key, List<String> allowed) {
        return node(key).flatMap(node -> of(node, pathOf(key), errors, allowed));
    }

    /** A free-form mapping turned into plain Java values; absent or null is an empty map. */
    Optional<Map<String, Object>> freeMapping(String key) {
        Optional<YamlNode> node = node(key);
        if (node.isEmpty() || node.get() instanceof YamlNode.Scalar scalar && scalar.isNull()) {
            return Optional.of(Map.of());
        }
        if (!(node.get() instanceof YamlNode.Mapping nested)) {
            errors.add(node.get().position(), pathOf(key), "expected a mapping, found " + node.get().kind());
            return Optional.empty();
        }
        return Optional.of(toJava(nested));
    }

    /** The entries of a list; absent is empty, anything else than a list is an error. */
    Optional<List<YamlNode>> list(String key) {
        Optional<YamlNode> node = node(key);
        if (node.isEmpty()) {
            return Optional.of(List.of());
        }
        if (node.get() instanceof YamlNode.Sequence sequence) {
            return Optional.of(sequence.items());
        }
        if (node.get() instanceof YamlNode.Scalar scalar && scalar.isNull()) {
            return Optional.of(List.of());
        }
        errors.add(node.get().position(), pathOf(key), "expected a list, found " + node.get().kind());
        return Optional.empty();
    }

    private Optional<YamlNode.Scalar> scalar(String key, String expected) {
        return node(key).flatMap(node -> {
            if (node instanceof YamlNode.Scalar scalar) {
                return Optional.of(scalar);
            }
            errors.add(node.position(), pathOf(key), "expected " + expected + ", found " + node.kind());
            return Optional.empty();
        });
    }

    private static Optional<Long> parseLong(String text) {
        try {
            return Optional.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String describe(YamlNode.Scalar scalar) {
        return scalar.isNull() ? scalar.kind() : scalar.kind() + " \"" + scalar.text() + "\"";
    }

    static String childPath(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static Map<String, Object> toJava(YamlNode.Mapping mapping) {
        Map<String, Object> out = new LinkedHashMap<>();
        mapping.entries().forEach(entry -> out.put(entry.key(), toJava(entry.value())));
        return Collections.unmodifiableMap(out);
    }

    private static Object toJava(YamlNode node) {
        return switch (node) {
            case YamlNode.Mapping mapping -> toJava(mapping);
            case YamlNode.Sequence sequence -> {
                List<Object> items = new ArrayList<>();
                sequence.items().forEach(item -> items.add(toJava(item)));
                yield Collections.unmodifiableList(items);
            }
            case YamlNode.Scalar scalar -> scalar.value();
        };
    }
}
