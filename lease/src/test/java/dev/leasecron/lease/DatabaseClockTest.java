package dev.leasecron.lease;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The database clock: UTC milliseconds read in SQL, and the estimate a process keeps of it. */
class DatabaseClockTest {

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void databaseClockIsUtcMilliseconds(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);

        long skewMs = leases.readDatabaseClock().toEpochMilli() - System.currentTimeMillis();

        // The server runs on this machine: seconds read as milliseconds, or a time zone's offset, are far off.
        assertTrue(Math.abs(skewMs) < 60_000, "the database clock is " + skewMs + " ms from this machine's");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void databaseClockHasMillisecondsNotJustSeconds(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        // Read until a sample shows milliseconds, for up to three seconds, not a fixed count in a row:
        // SQLite answers in microseconds, so twenty reads can all fall in one millisecond, which is .000
        // once a thousand runs. A clock of whole seconds still fails every read.
        await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(7))
                .alias(db + ": the database clock read whole seconds only")
                .until(() -> leases.readDatabaseClock().toEpochMilli() % 1000 != 0);
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void estimateNeverRunsAheadOfTheDatabase(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        assertFalse(leases.clock().known());
        assertThrows(IllegalStateException.class, () -> leases.clock().now(), "no estimate before a sample");

        for (int i = 0; i < 5; i++) {
            long sampled = leases.readDatabaseClock().toEpochMilli();
            long runsOnMs = 50L * i;
            // The estimate runs on alone for a while, a little longer each time.
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                    .until(() -> leases.clock().now().toEpochMilli() >= sampled + runsOnMs);
            Instant estimate = leases.clock().now();
            Instant fresh = leases.readDatabaseClock();
            // The database answers in whole milliseconds, so the estimate is compared at that precision.
            assertTrue(fresh.toEpochMilli() >= estimate.toEpochMilli(), "estimate " + estimate + " ahead of the database's " + fresh);
        }
    }

    @Test
    void aLooserSampleDoesNotReplaceATighterOne() {
        AtomicLong nanos = new AtomicLong(1_000_000_000L);
        DatabaseClock clock = new DatabaseClock(nanos::get);
        clock.observe(5_000, nanos.get()); // a quick read: the database's 5.000 s arrived at once
        nanos.addAndGet(2_000_000_000L);
        clock.observe(6_950, nanos.get()); // a slow batch: read at 6.950 s, arrived when it was 7.000 s
        assertEquals(7_000, clock.now().toEpochMilli(), "the quick read's bound is the higher one");
        clock.observe(7_001, nanos.get());
        assertEquals(7_001, clock.now().toEpochMilli(), "a tighter sample replaces it");
    }

    @Test
    void aSampleKeptTooLongGivesWayEvenToALowerOne() {
        AtomicLong nanos = new AtomicLong(0);
        DatabaseClock clock = new DatabaseClock(nanos::get);
        clock.observe(100_000, 0);
        nanos.addAndGet(DatabaseClock.KEEP_AT_MOST_NANOS);
        clock.observe(120_000, nanos.get()); // the database clock was stepped back 10 s
        assertEquals(120_000, clock.now().toEpochMilli());
    }
}
