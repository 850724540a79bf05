package dev.leasecron.app.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.app.ops.SchedulerMetrics;
import dev.leasecron.config.HistorySpec;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryQuery;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.NotRun;
import dev.leasecron.lease.RunRequestState;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The purger deletes by age and beyond the per-job cap, in bounded statements, one replica at a time. */
class HistoryPurgerTest {
    private static final HistorySpec SPEC = new HistorySpec(true, Duration.ofDays(14), 10);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void onePurgerAtATimeDeletesOldRowsAndRowsBeyondTheCap(TestDatabase db) throws Exception {
        Leases leases = db.leases(TestTimings.FAST);
        String old = TestDatabase.uniqueName("purge-old");
        String busy = TestDatabase.uniqueName("purge-busy");
        Instant now = leases.readDatabaseClock();
        List<NotRun> rows = new ArrayList<>();
        // More than two statements' worth of old rows: the purge goes on until none is left.
        for (int i = 0; i < 2 * HistoryPurger.BATCH + 100; i++) {
            Instant at = now.minus(Duration.ofDays(20)).plusSeconds(i);
            rows.add(new NotRun(old, at, at, 1, HistoryOutcome.MISSED, ""));
        }
        for (int i = 0; i < 15; i++) {
            Instant at = now.minusSeconds(1000 - i);
            rows.add(new NotRun(busy, at, at, 1, HistoryOutcome.SKIPPED, ""));
        }
        leases.history().recordNotRun(rows);

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        HistoryPurger first = new HistoryPurger(db.leases(TestTimings.FAST), SPEC, new SchedulerMetrics(registry), Duration.ZERO);
        HistoryPurger second = new HistoryPurger(db.leases(TestTimings.FAST), SPEC, new SchedulerMetrics(registry), Duration.ZERO);

        // Another replica's pass holds the purge lease: this one does nothing.
        Handle elsewhere = leases.claim(HistoryPurger.LEASE).orElseThrow();
        assertEquals(Optional.empty(), first.passOnce());
        assertEquals(Optional.empty(), second.passOnce());
        assertEquals(2 * HistoryPurger.BATCH + 100, count(leases, old), "nothing purged while the lease is held elsewhere");
        elsewhere.release();

        long purged = first.passOnce().orElseThrow();
        assertTrue(purged >= 2 * HistoryPurger.BATCH + 100 + 5, "at least ours: " + purged);
        assertEquals(0, count(leases, old));
        assertEquals(10, count(leases, busy), "the newest 10 of the job kept");
        assertEquals(now.minusSeconds(1000 - 14), leases.history().entries(HistoryQuery.latest(List.of(busy), 1))
                .getFirst().instant());
        assertEquals(purged, (long) registry.get("leasecron.history.purged").counter().count());
        assertEquals(Optional.of(0L), second.passOnce(), "the lease given back, the next pass finds nothing left");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void runRequestsOlderThanTheRetentionGoButThoseRunning(TestDatabase db) throws Exception {
        Leases leases = db.leases(TestTimings.FAST);
        String job = TestDatabase.uniqueName("purge-requests");
        String ended = UUID.randomUUID().toString();
        String pending = UUID.randomUUID().toString();
        String running = UUID.randomUUID().toString();
        String recent = UUID.randomUUID().toString();
        for (String id : List.of(ended, pending, running, recent)) {
            leases.controls().requestRun(job, id, "cli:test");
        }
        long longAgo = leases.readDatabaseClock().minus(Duration.ofDays(20)).toEpochMilli();
        db.execute("UPDATE gst_run_requests SET requested_ms = " + longAgo + " WHERE id IN ('" + ended + "', '" + pending
                + "', '" + running + "')");
        db.execute("UPDATE gst_run_requests SET state = 'ended', outcome = 'ok' WHERE id = '" + ended + "'");
        db.execute("UPDATE gst_run_requests SET state = 'running', term = 3 WHERE id = '" + running + "'");

        new HistoryPurger(leases, SPEC, new SchedulerMetrics(new SimpleMeterRegistry()), Duration.ZERO).passOnce();

        assertTrue(leases.controls().runRequest(ended).isEmpty(), "ended long ago: deleted");
        assertTrue(leases.controls().runRequest(pending).isEmpty(), "never taken, long ago: deleted");
        assertEquals(RunRequestState.RUNNING, leases.controls().runRequest(running).orElseThrow().state(), "running: kept");
        assertEquals(RunRequestState.PENDING, leases.controls().runRequest(recent).orElseThrow().state(), "recent: kept");
    }

    private static int count(Leases leases, String name) {
        return leases.history().entries(HistoryQuery.latest(List.of(name), 100_000)).size();
    }
}
