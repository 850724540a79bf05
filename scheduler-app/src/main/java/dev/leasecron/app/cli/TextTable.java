package dev.leasecron.app.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Rows of text printed in left-aligned columns, two spaces apart, for people to read. */
final class TextTable {
    private final List<List<String>> rows = new ArrayList<>();

    TextTable(String... header) {
        rows.add(List.of(header));
    }

    void add(String... cells) {
        rows.add(List.of(cells));
    }

    void print(PrintWriter out) {
        int columns = rows.getFirst().size();
        int[] widths = new int[columns];
        for (List<String> row : rows) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(row.get(i));
                if (i < columns - 1) {
                    line.append(" ".repeat(widths[i] - row.get(i).length() + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
        out.flush();
    }
}
