package dev.leasecron.config;

/**
 * Where a token starts in the jobs file: 1-based line and column, and the 0-based character offset
 * used to find text inside a token (an interpolation inside a long scalar).
 */
record Position(int line, int column, int offset) {
    /** The position of {@code offset} in {@code source}, counting lines and columns from 1. */
    static Position at(String source, int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < source.length(); i++) {
            if (source.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new Position(line, offset - lineStart + 1, offset);
    }
}
