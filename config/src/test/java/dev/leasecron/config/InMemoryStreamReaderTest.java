package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;

class InMemoryStreamReaderTest {
    static Stream<String> texts() throws IOException {
        return Stream.of(
                Files.readString(Path.of("../examples/jobs.yaml")),
                "a: 1\r\nb:\r\n  - x\r\n  - 'y z'\r\n",
                "\uFEFFkey: value\nother: \"quoted \\u00e9 \\n escape\"\n",
                "emoji: \"\uD83D\uDE80 rocket\"\nnext: \uD83D\uDE80\uD83D\uDE80 plain\n",
                "block: |\n  line one\n  " + "w".repeat(5_000) + "\n  line three\nafter: 1\n",
                "long: " + "p".repeat(10_000) + "\nquoted: \"" + "q".repeat(3_000) + "\"\n",
                "odd\rbreaks\u0085and\u2028more: 1\n",
                "a: [1, 2\nb: 3\n",
                "key: \"unterminated\n",
                "");
    }

    @ParameterizedTest
    @MethodSource("texts")
    void parsesToTheSameEventsAndPositionsAsSnakeYamlsOwnReader(String text) {
        assertEquals(events(new StreamReader(new StringReader(text))), events(new InMemoryStreamReader(text)));
    }

    @Test
    void refusesACharacterYamlDoesNotAllowAsSnakeYamlDoes() {
        String text = "a: 1\nb: x\u0001y\n";
        ReaderException stock = assertThrows(ReaderException.class, () -> events(new StreamReader(new StringReader(text))));
        ReaderException ours = assertThrows(ReaderException.class, () -> events(new InMemoryStreamReader(text)));
        assertEquals(stock.toString(), ours.toString());
    }

    /** Every event with where it starts and ends, then the syntax error if there is one. */
    private static List<String> events(StreamReader reader) {
        ParserImpl parser = new ParserImpl(reader, new LoaderOptions());
        List<String> seen = new ArrayList<>();
        try {
            while (parser.peekEvent() != null) {
                Event event = parser.getEvent();
                seen.add(event + " " + at(event.getStartMark()) + "-" + at(event.getEndMark()));
                if (event.is(Event.ID.StreamEnd)) {
                    break;
                }
            }
        } catch (MarkedYAMLException e) {
            seen.add(e.getContext() + " / " + e.getProblem() + " " + at(e.getProblemMark()));
        }
        return seen;
    }

    private static String at(Mark mark) {
        return mark.getIndex() + "@" + mark.getLine() + ":" + mark.getColumn();
    }
}
