package dev.leasecron.config;

/**
 * Where a token starts in the jobs file: 1-based line and column, and the 0-based character offset
 * used to find text inside a token (an interpolation inside a long scalar).
 */
record Position(int line, int column, int offset) {
    /**
     * The position of {@code target} in {@code source}, counted on from this position (which must
     * not be after it), so that only the text between the two is scanned.
     */
    Position advancedTo(String source, int target) {
        int atLine = line;
        int atColumn = column;
        for (int i = offset; i < target && i < source.length(); i++) {
            if (source.charAt(i) == '\n') {
                atLine++;
                atColumn = 1;
            } else {
                atColumn++;
            }
        }
        return new Position(atLine, atColumn, target);
    }
}
