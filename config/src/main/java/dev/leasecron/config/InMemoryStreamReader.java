package dev.leasecron.config;

import java.io.Reader;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.Constant;

/**
 * SnakeYAML's character reader over text that is already in memory, in linear time.
 *
 * <p>Why it exists: SnakeYAML's own {@link StreamReader} reads its input 1,023 characters at a time
 * and, on each read, copies everything from the token being scanned to the end of what it has read
 * into a new array. A token is only consumed once it is scanned whole, so one long token (a scalar
 * without spaces, a long line of a block scalar) makes every read copy all of it again: reading an
 * n-character token costs n&sup2;/2,046 copied characters (a 4 MB scalar took 5 s, 8 MB 17.5 s).
 * The jobs file is bounded in size and read whole before parsing anyway, so this reader holds all
 * of it as code points from the start and never copies.
 *
 * <p>It behaves as {@link StreamReader} does towards the scanner: the same positions (index, line,
 * column, with {@code \r\n} one line break and a byte-order mark taking no column), {@code 0} past
 * the end, and the same {@link ReaderException} for a character YAML does not allow, raised when
 * the scanner reaches it. {@link InMemoryStreamReaderTest} compares the two on the same texts.
 */
final class InMemoryStreamReader extends StreamReader {
    // SnakeYAML names a Reader input so in its messages; Jackson always hands it a Reader.
    private static final String NAME = "'reader'";

    private final int[] codePoints;
    /** The index of the first character YAML does not allow, or the length when there is none. */
    private final int firstNonPrintable;
    private int pointer;
    private int index;
    private int documentIndex;
    private int line;
    private int column;

    InMemoryStreamReader(String text) {
        super(Reader.nullReader());
        this.codePoints = text.codePoints().toArray();
        int bad = 0;
        while (bad < codePoints.length && isPrintable(codePoints[bad])) {
            bad++;
        }
        this.firstNonPrintable = bad;
    }

    @Override
    public Mark getMark() {
        return new Mark(NAME, index, line, column, codePoints, pointer);
    }

    @Override
    public void forward() {
        forward(1);
    }

    @Override
    public void forward(int length) {
        for (int i = 0; i < length && hasData(0); i++) {
            int c = codePoints[pointer++];
            moveIndices(1);
            if (Constant.LINEBR.has(c) || c == '\r' && hasData(0) && codePoints[pointer] != '\n') {
                line++;
                column = 0;
            } else if (c != '\uFEFF') {
                column++;
            }
        }
    }

    @Override
    public int peek() {
        return hasData(0) ? codePoints[pointer] : 0;
    }

    @Override
    public int peek(int offset) {
        return hasData(offset) ? codePoints[pointer + offset] : 0;
    }

    @Override
    public String prefix(int length) {
        if (length == 0) {
            return "";
        }
        hasData(length);
        return new String(codePoints, pointer, Math.min(length, codePoints.length - pointer));
    }

    @Override
    public String prefixForward(int length) {
        String prefix = prefix(length);
        pointer += length;
        moveIndices(length);
        column += length;
        return prefix;
    }

    @Override
    public int getColumn() {
        return column;
    }

    @Override
    public int getDocumentIndex() {
        return documentIndex;
    }

    @Override
    public void resetDocumentIndex() {
        documentIndex = 0;
    }

    @Override
    public int getIndex() {
        return index;
    }

    @Override
    public int getLine() {
        return line;
    }

    /** Whether the character {@code offset} ahead exists; reaching a forbidden one is an error. */
    private boolean hasData(int offset) {
        int wanted = pointer + offset;
        if (wanted >= firstNonPrintable && firstNonPrintable < codePoints.length) {
            throw new ReaderException(NAME, firstNonPrintable, codePoints[firstNonPrintable],
                    "special characters are not allowed");
        }
        return wanted < codePoints.length;
    }

    private void moveIndices(int length) {
        index += length;
        documentIndex += length;
    }
}
