package dev.leasecron.lease.sql;

import java.nio.charset.StandardCharsets;

/** Bounds the free text of a history row (an error, a reason) so a row stays a few KiB at most. */
public final class HistoryText {
    /** The most UTF-8 bytes a row's detail keeps, marker included. */
    public static final int MAX_BYTES = 4096;
    /** Ends a text that was cut, so a reader knows there was more. */
    public static final String CUT_MARKER = " [...cut]";

    private HistoryText() {}

    /**
     * {@code text} when it fits in {@link #MAX_BYTES} UTF-8 bytes, else its longest prefix that fits
     * with the marker, cut between two characters (never inside a surrogate pair); NUL characters
     * dropped. Null is empty.
     */
    public static String bound(String text) {
        return bound(text, MAX_BYTES);
    }

    /** {@link #bound(String)} to {@code maxBytes} UTF-8 bytes, marker included: for narrower columns. */
    public static String bound(String text, int maxBytes) {
        if (text == null) {
            return "";
        }
        if (text.indexOf('\0') >= 0) {
            // PostgreSQL's text refuses NUL, and one row refused fails the whole statement of its batch.
            text = text.replace("\0", "");
        }
        if (text.length() * 3 <= maxBytes || text.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
            return text;
        }
        int budget = maxBytes - CUT_MARKER.length();
        int bytes = 0;
        int end = 0;
        while (end < text.length()) {
            int cp = text.codePointAt(end);
            int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + size > budget) {
                break;
            }
            bytes += size;
            end += Character.charCount(cp);
        }
        return text.substring(0, end) + CUT_MARKER;
    }
}
