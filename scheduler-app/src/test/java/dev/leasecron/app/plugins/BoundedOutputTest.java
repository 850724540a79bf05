package dev.leasecron.app.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The bounds that keep a chatty command or a large HTTP answer from filling the daemon's memory. */
class BoundedOutputTest {

    @Test
    void lineReaderSplitsOnNewlinesAndDropsCarriageReturns() throws IOException {
        assertEquals(List.of("one", "", "two", "three"), lines("one\n\r\ntwo\r\nthree", 100));
    }

    @Test
    void lineReaderCutsLongLinesAndGoesOnWithTheNext() throws IOException {
        assertEquals(List.of("abcd" + BoundedLineReader.CUT_MARK, "ok"), lines("abcdefgh\nok\n", 4));
    }

    @Test
    void tailKeepsTheLastLinesWithinItsBounds() {
        Tail byLines = new Tail(2, 100);
        List.of("a", "b", "c").forEach(byLines::add);
        assertEquals("b\nc", byLines.text());

        Tail byChars = new Tail(10, 5);
        List.of("abc", "def", "0123456789").forEach(byChars::add);
        assertEquals("56789", byChars.text());
    }

    @Test
    void bodyKeepsOnlyItsFirstBytes() {
        BoundedBody body = new BoundedBody(5);
        body.accept(Optional.of("abc".getBytes(StandardCharsets.UTF_8)));
        body.accept(Optional.of("defgh".getBytes(StandardCharsets.UTF_8)));
        body.accept(Optional.empty());

        assertEquals("abcde…", body.excerpt());
    }

    private static List<String> lines(String text, int maxChars) throws IOException {
        BoundedLineReader reader = new BoundedLineReader(new StringReader(text), maxChars);
        List<String> lines = new ArrayList<>();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lines.add(line);
        }
        return lines;
    }
}
