package dev.leasecron.app.plugins;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The last lines of a stream, at most {@code maxLines} of them and {@code maxChars} in all, for a
 * failure message. Safe to add to from one thread while another reads.
 */
final class Tail {
    private final int maxLines;
    private final int maxChars;
    private final Deque<String> lines = new ArrayDeque<>();
    private int chars;

    Tail(int maxLines, int maxChars) {
        if (maxLines < 1 || maxChars < 1) {
            throw new IllegalArgumentException("maxLines and maxChars must be positive");
        }
        this.maxLines = maxLines;
        this.maxChars = maxChars;
    }

    synchronized void add(String line) {
        String kept = line.length() > maxChars ? line.substring(line.length() - maxChars) : line;
        lines.addLast(kept);
        chars += kept.length();
        while (lines.size() > maxLines || chars > maxChars) {
            chars -= lines.removeFirst().length();
        }
    }

    /** The kept lines joined by newlines; empty when nothing was added. */
    synchronized String text() {
        return String.join("\n", lines);
    }
}
