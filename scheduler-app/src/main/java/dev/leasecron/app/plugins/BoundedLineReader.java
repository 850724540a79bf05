package dev.leasecron.app.plugins;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

/**
 * Reads lines of a child process's output, keeping at most {@code maxChars} of each: a command that
 * writes megabytes without a newline must not fill the daemon's memory. The rest of a long line is
 * read and dropped, and the kept part ends with {@link #CUT_MARK}.
 */
final class BoundedLineReader {
    static final String CUT_MARK = " [line cut]";

    private final BufferedReader in;
    private final int maxChars;

    BoundedLineReader(Reader in, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be positive: " + maxChars);
        }
        this.in = new BufferedReader(in);
        this.maxChars = maxChars;
    }

    /** The next line without its terminator ({@code \n} or {@code \r\n}); null at the end. */
    String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        boolean cut = false;
        int c;
        while ((c = in.read()) != -1 && c != '\n') {
            if (line.length() < maxChars) {
                line.append((char) c);
            } else {
                cut = true;
            }
        }
        if (c == -1 && line.isEmpty() && !cut) {
            return null;
        }
        if (!cut && !line.isEmpty() && line.charAt(line.length() - 1) == '\r') {
            line.setLength(line.length() - 1);
        }
        return cut ? line + CUT_MARK : line.toString();
    }
}
