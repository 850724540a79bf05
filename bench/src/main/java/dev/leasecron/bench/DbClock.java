package dev.leasecron.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The local clock moved onto PostgreSQL's {@code clock_timestamp()}: the offset is taken from the
 * sample with the shortest round trip of several, as NTP does, and the round trip's half is the error bound.
 */
final class DbClock {
    private final long offsetMicros;
    private final long errorMicros;

    private DbClock(long offsetMicros, long errorMicros) {
        this.offsetMicros = offsetMicros;
        this.errorMicros = errorMicros;
    }

    static DbClock sync(DataSource ds) throws SQLException {
        long bestRtt = Long.MAX_VALUE;
        long bestOffset = 0;
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            for (int i = 0; i < 25; i++) {
                long before = localMicros();
                long db;
                try (ResultSet rs = s.executeQuery("SELECT FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT")) {
                    rs.next();
                    db = rs.getLong(1);
                }
                long after = localMicros();
                if (after - before < bestRtt) {
                    bestRtt = after - before;
                    bestOffset = db - (before + after) / 2;
                }
            }
        }
        return new DbClock(bestOffset, bestRtt / 2);
    }

    static long localMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    long nowMicros() {
        return localMicros() + offsetMicros;
    }

    long nowMs() {
        return nowMicros() / 1000;
    }

    long offsetMicros() {
        return offsetMicros;
    }

    long errorMicros() {
        return errorMicros;
    }
}
