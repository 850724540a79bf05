package dev.leasecron.config;

import java.util.List;
import java.util.Optional;

/**
 * The jobs file as a tree in which every key and value remembers where it was written, so that a
 * mistake found while binding it can be reported at its line and column. Scalars are already
 * interpolated.
 */
sealed interface YamlNode {
    /** Where the node starts (for a mapping or list: its first entry). */
    Position position();

    /** What the user would call this kind of node in an error message. */
    String kind();

    /** A mapping; keys keep their order and their own positions. */
    record Mapping(List<Entry> entries, Position position) implements YamlNode {
        Optional<Entry> entry(String key) {
            return entries.stream().filter(e -> e.key().equals(key)).findFirst();
        }

        @Override
        public String kind() {
            return "a mapping";
        }
    }

    /** One {@code key: value} of a mapping. */
    record Entry(String key, Position keyPosition, YamlNode value) {}

    /** A list ({@code - item} or {@code [a, b]}). */
    record Sequence(List<YamlNode> items, Position position) implements YamlNode {
        @Override
        public String kind() {
            return "a list";
        }
    }

    /**
     * A scalar: {@code text} as written (interpolated), {@code type} as YAML typed it, and
     * {@code value} its Java value (String, Boolean, a Number, or null). An interpolated scalar is
     * always a {@link ScalarType#STRING}: its type cannot be known from the file.
     */
    record Scalar(String text, ScalarType type, Object value, Position position) implements YamlNode {
        boolean isNull() {
            return type == ScalarType.NULL;
        }

        @Override
        public String kind() {
            return switch (type) {
                case NULL -> "nothing (null)";
                case BOOLEAN -> "a boolean";
                case INTEGER, DECIMAL -> "a number";
                case STRING -> "a string";
            };
        }
    }

    /** YAML's scalar types, as far as they matter to binding. */
    enum ScalarType {
        NULL,
        BOOLEAN,
        INTEGER,
        DECIMAL,
        STRING
    }
}
