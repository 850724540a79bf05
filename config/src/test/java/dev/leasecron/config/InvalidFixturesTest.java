package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file under {@code invalid/} is a mistake a user could make. Its {@code # expect:} lines are
 * the exact errors, in order, that loading it must report: all of them, each at its line and column,
 * and as a {@link ConfigException} rather than any other exception.
 */
class InvalidFixturesTest {
    private static final String EXPECT = "# expect: ";

    /** Knows the built-in types the way the daemon's plugin loader will: shell needs a command. */
    static final JobTypeChecker BUILT_INS = (type, params) -> switch (type) {
        case "shell" -> params.containsKey("command")
                ? List.of()
                : List.of(TypeProblem.ofParam("command", "required: a string run by sh -c, or an argv list"));
        case "http" -> List.of();
        default -> List.of(TypeProblem.ofType("no plugin provides type \"" + type + "\" (known: http, shell)"));
    };

    private static final ConfigLoader LOADER = new ConfigLoader(Map.of("HOME", "/home/test"), BUILT_INS);

    static Stream<Path> fixtures() throws IOException, URISyntaxException {
        Path directory = Path.of(InvalidFixturesTest.class.getResource("/invalid").toURI());
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @Test
    void thereAreAtLeastTwentyFiveMistakes() throws Exception {
        assertTrue(fixtures().count() >= 25);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void reportsEveryErrorAtItsPosition(Path file) throws IOException {
        String text = Files.readString(file);
        List<String> expected = text.lines()
                .filter(line -> line.startsWith(EXPECT))
                .map(line -> line.substring(EXPECT.length()))
                .toList();
        assertFalse(expected.isEmpty(), "a fixture states its errors in '# expect:' lines");
        String name = file.getFileName().toString();

        ConfigException thrown = assertThrows(ConfigException.class, () -> LOADER.parse(name, text));

        assertEquals(expected, thrown.errors().stream().map(ConfigError::toString).toList());
    }
}
