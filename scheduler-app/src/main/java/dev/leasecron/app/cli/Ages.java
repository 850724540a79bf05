package dev.leasecron.app.cli;

import java.time.Duration;

/** Short spans of time as operators read them in a table: {@code 850ms}, {@code 12s}, {@code 5m}, {@code 3h}, {@code 2d}. */
final class Ages {
    private Ages() {}

    static String of(Duration d) {
        long ms = Math.max(0, d.toMillis());
        if (ms < 1_000) {
            return ms + "ms";
        }
        long s = ms / 1_000;
        if (s < 120) {
            return s + "s";
        }
        if (s < 2 * 3600) {
            return s / 60 + "m";
        }
        if (s < 2 * 86_400) {
            return s / 3600 + "h";
        }
        return s / 86_400 + "d";
    }

    static String ago(Duration d) {
        return of(d) + " ago";
    }
}
