package dev.leasecron.lease;

import static dev.leasecron.lease.ClaimTest.row;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.BorrowCounting;
import dev.leasecron.lease.testing.Outage;
import dev.leasecron.lease.testing.RecordingListener;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Hold: the renewals that keep a claimed name, and the scope that ends the moment it is lost. */
class HoldTest {
    private static final Logger LOG = LoggerFactory.getLogger(HoldTest.class);

    /** Short enough to play several lease durations out in a test, long enough for a loaded machine. */
    private static final LeaseTimings SHORT = new LeaseTimings(
            Duration.ofMillis(800), Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMillis(200));

    /**
     * A local deadline far from the renew interval, so a loss the deadline declares (at least
     * {@code localDeadline - renewInterval} after the last renewal) is told apart from one a renewal
     * reports (within a few renew intervals).
     */
    private static final LeaseTimings LONG_DEADLINE = new LeaseTimings(
            Duration.ofMillis(6000), Duration.ofMillis(100), Duration.ofMillis(4000), Duration.ofMillis(200));

    /** A deadline of 1.5 s: each attempt waits at most 750 ms, so a stall of it sees several. */
    private static final LeaseTimings STALLABLE = new LeaseTimings(
            Duration.ofMillis(3000), Duration.ofMillis(100), Duration.ofMillis(1500), Duration.ofMillis(200));

    /**
     * Attempts 500 ms apart, each waiting at most 750 ms: in a stall the second starts 1250 ms after
     * the last good renewal, so an attempt not cut off at the deadline would run 500 ms past it.
     */
    private static final LeaseTimings SPARSE_ATTEMPTS = new LeaseTimings(
            Duration.ofMillis(3000), Duration.ofMillis(500), Duration.ofMillis(1500), Duration.ofMillis(200));

    /** How late past the local deadline a loss may be declared on a loaded machine: half the overshoot guarded. */
    private static final Duration DEADLINE_SLACK = SPARSE_ATTEMPTS.renewInterval().dividedBy(2);

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aStoppedHoldingIsLetGoByTheScopeItWasMadeUnder(TestDatabase db) {
        Leases mine = db.leases(SHORT);
        LeaseScope rounds = LeaseScope.root();
        List<WeakReference<LeaseScope>> scopes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Holding holding = mine.hold(mine.claim(uniqueName("let-go")).orElseThrow(), rounds, LOG);
            holding.stop();
            scopes.add(new WeakReference<>(holding.scope()));
        }

        // A replica's scope of its rounds lives for days; every round holds a lease under it.
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            System.gc();
            return scopes.stream().allMatch(s -> s.get() == null);
        });
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void holdingKeepsTheNameWellPastTheLeaseDuration(TestDatabase db) {
        Leases mine = db.leases(SHORT);
        Leases other = db.leases(SHORT);
        String name = uniqueName("hold");
        Handle h = mine.claim(name).orElseThrow();
        Holding holding = mine.hold(h, LeaseScope.root(), LOG);
        try {
            // Three lease durations: without renewals the claim would have expired twice over.
            await().during(SHORT.leaseDuration().multipliedBy(3)).atMost(SHORT.leaseDuration().multipliedBy(5))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> other.claim(name).isEmpty() && !holding.scope().isCancelled());
            assertEquals(h.holder(), row(other, name).holder());
            assertFalse(h.lost());
        } finally {
            holding.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void renewalThatFindsTheLeaseReleasedEndsTheScopeWithLeaseLost(TestDatabase db) throws Exception {
        Leases leases = db.leases(LONG_DEADLINE);
        String name = uniqueName("hold-gone");
        Handle h = leases.claim(name).orElseThrow();
        Holding holding = leases.hold(h, LeaseScope.root(), LOG);
        try {
            db.expire(name);

            // Well before the local deadline could have fired: a renewal reported the loss.
            assertTrue(holding.scope().await(LONG_DEADLINE.localDeadline().dividedBy(2)), "scope ended");
            assertInstanceOf(LeaseLostException.class, holding.scope().reason());
            assertTrue(h.lost());
        } finally {
            holding.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void renewalThatFindsTheNameClaimedElsewhereEndsTheScopeWithLeaseLost(TestDatabase db) throws Exception {
        Leases mine = db.leases(LONG_DEADLINE);
        Leases other = db.leases(LONG_DEADLINE);
        String name = uniqueName("hold-taken");
        Handle h = mine.claim(name).orElseThrow();
        Holding holding = mine.hold(h, LeaseScope.root(), LOG);
        try {
            db.expire(name);
            Handle successor = other.claim(name).orElseThrow();

            assertTrue(holding.scope().await(LONG_DEADLINE.localDeadline().dividedBy(2)), "scope ended");
            assertInstanceOf(LeaseLostException.class, holding.scope().reason());
            assertTrue(h.lost());
            assertEquals(successor.holder(), row(other, name).holder(), "the old holder's renewals left the successor alone");
        } finally {
            holding.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void stalledDatabaseEndsTheScopeAtTheLocalDeadlineAfterRetryingAtTheRenewCadence(TestDatabase db) throws Exception {
        RecordingListener listener = new RecordingListener();
        Leases leases = db.leases(SPARSE_ATTEMPTS, db.pool(4), listener);
        String name = uniqueName("hold-stall");
        Handle h = leases.claim(name).orElseThrow();
        Holding holding = leases.hold(h, LeaseScope.root(), LOG);
        AtomicLong endedAt = new AtomicLong();
        holding.scope().onCancel(() -> endedAt.set(System.nanoTime()));
        try (AutoCloseable stall = db.stall(name)) {
            // The last renewal that succeeded started at most one renew interval before the stall; one
            // more interval is allowed for the scheduling of a loaded machine.
            Duration notBefore = SPARSE_ATTEMPTS.localDeadline().minus(SPARSE_ATTEMPTS.renewInterval().multipliedBy(2));
            await().during(notBefore).atMost(notBefore.multipliedBy(2)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !holding.scope().isCancelled() && !h.lost());

            await().atMost(SPARSE_ATTEMPTS.localDeadline().plusSeconds(2)).pollInterval(Duration.ofMillis(10))
                    .until(h::lost);
            assertTrue(holding.scope().isCancelled());
            assertInstanceOf(LeaseLostException.class, holding.scope().reason());
            // Measured from the start of the last good renewal, which is what the deadline counts from.
            Duration pastDeadline = Duration.ofNanos(endedAt.get() - h.lastRenewedNanos()).minus(SPARSE_ATTEMPTS.localDeadline());
            assertTrue(pastDeadline.compareTo(DEADLINE_SLACK) < 0,
                    "lost " + pastDeadline.toMillis() + " ms past the local deadline: an attempt ran on past it");
            assertTrue(listener.renewFailures.size() > 1,
                    "a failed renewal is tried again, not given up on: " + listener.renewFailures);
            assertTrue(listener.renewFailures.stream().anyMatch(TimeoutException.class::isInstance),
                    "a hanging attempt is cut off at its own timeout: " + listener.renewFailures);
        } finally {
            holding.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void failingRenewalsAreRetriedAtTheRenewCadenceNotFasterNorSlower(TestDatabase db) {
        RecordingListener listener = new RecordingListener();
        Outage outage = new Outage(db.pool(4));
        Leases leases = db.leases(STALLABLE, outage.dataSource(), listener);
        Handle h = leases.claim(uniqueName("hold-outage")).orElseThrow();
        Holding holding = leases.hold(h, LeaseScope.root(), LOG);
        try {
            outage.down();
            await().atMost(STALLABLE.localDeadline().plusSeconds(2)).pollInterval(Duration.ofMillis(10)).until(h::lost);

            // Failing at once, an attempt every renew interval until the deadline: about 14 of them.
            long perDeadline = STALLABLE.localDeadline().dividedBy(STALLABLE.renewInterval());
            int failures = listener.renewFailures.size();
            assertTrue(failures >= perDeadline / 2 && failures <= perDeadline + 1,
                    failures + " failed renewals within one local deadline of " + perDeadline + " intervals");
        } finally {
            holding.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void outageShorterThanTheDeadlineCostsTheHolderNothing(TestDatabase db) {
        RecordingListener listener = new RecordingListener();
        Outage outage = new Outage(db.pool(4));
        Leases leases = db.leases(STALLABLE, outage.dataSource(), listener);
        String name = uniqueName("hold-blip");
        Handle h = leases.claim(name).orElseThrow();
        Holding holding = leases.hold(h, LeaseScope.root(), LOG);
        try {
            outage.down();
            await().atMost(Duration.ofSeconds(2)).until(() -> listener.renewFailures.size() >= 3);
            outage.up();

            // Two deadlines on, the renewals have long taken over again.
            await().during(STALLABLE.localDeadline().multipliedBy(2)).atMost(STALLABLE.localDeadline().multipliedBy(3))
                    .pollInterval(Duration.ofMillis(50)).until(() -> !holding.scope().isCancelled() && !h.lost());
            LeaseRow r = row(leases, name);
            assertEquals(h.holder(), r.holder());
            assertTrue(r.held());
        } finally {
            holding.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void renewalsOutliveTheParentScopeSoTheNameStaysHeldWhileWorkWindsDown(TestDatabase db) {
        Leases mine = db.leases(SHORT);
        Leases other = db.leases(SHORT);
        String name = uniqueName("hold-parent");
        Handle h = mine.claim(name).orElseThrow();
        LeaseScope parent = LeaseScope.root();
        Holding holding = mine.hold(h, parent, LOG);
        try {
            parent.cancel("shutdown");

            assertTrue(holding.scope().isCancelled(), "the parent ending ends the work's scope");
            assertInstanceOf(CancellationException.class, holding.scope().reason(), "a shutdown, not a loss");
            await().during(SHORT.leaseDuration().multipliedBy(2)).atMost(SHORT.leaseDuration().multipliedBy(4))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> other.claim(name).isEmpty() && !h.lost());
            assertEquals(h.holder(), row(other, name).holder());
        } finally {
            holding.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void stopEndsTheRenewalsWithoutReleasing(TestDatabase db) {
        Leases leases = db.leases(SHORT);
        String name = uniqueName("hold-stop");
        Handle h = leases.claim(name).orElseThrow();
        long claimExpiresAtMs = row(leases, name).expiresAtMs();
        Holding holding = leases.hold(h, LeaseScope.root(), LOG);
        // Renewed past the claim's own expiry.
        await().atMost(SHORT.leaseDuration().multipliedBy(3)).pollInterval(Duration.ofMillis(20))
                .until(() -> leases.readDatabaseClock().toEpochMilli() > claimExpiresAtMs);
        assertTrue(row(leases, name).held(), "the renewals kept it");

        holding.stop();

        LeaseRow right = row(leases, name);
        assertTrue(right.held(), "still held right after stop: stop does not release");
        assertEquals(h.holder(), right.holder());
        await().atMost(SHORT.leaseDuration().multipliedBy(3)).pollInterval(Duration.ofMillis(20))
                .until(() -> !row(leases, name).held());
        assertFalse(h.lost(), "stopping is not a loss");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void stopCutsARenewalInFlightShort(TestDatabase db) throws Exception {
        // Each attempt may wait 3 s here: a stop that waited for the one in flight would take that long.
        LeaseTimings slowAttempts = new LeaseTimings(
                Duration.ofMillis(10_000), Duration.ofMillis(100), Duration.ofMillis(6000), Duration.ofMillis(200));
        AtomicLong borrowed = new AtomicLong();
        Leases leases = db.leases(slowAttempts, BorrowCounting.wrap(db.pool(4), borrowed));
        String name = uniqueName("hold-stop-stalled");
        Handle h = leases.claim(name).orElseThrow();
        Holding holding = leases.hold(h, LeaseScope.root(), LOG);
        try (AutoCloseable stall = db.stall(name)) {
            // A renewal has taken a connection for its statement, which the stall holds up.
            long beforeRenewals = borrowed.get();
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> borrowed.get() > beforeRenewals);

            long began = System.nanoTime();
            holding.stop();
            long tookMs = (System.nanoTime() - began) / 1_000_000;

            assertTrue(tookMs < slowAttempts.attemptTimeout().toMillis() / 3, "stop took " + tookMs + " ms");
        } finally {
            holding.stop();
        }
    }

    @Test
    void onSqliteAWorkTransactionLongerThanTheLocalDeadlineCostsTheLease() throws Exception {
        try (TestDatabase db = TestDatabases.of("sqlite")) {
            DataSource pool = db.pool(1);
            Leases leases = db.leases(STALLABLE, pool);
            GuardedTransactions tx = new GuardedTransactions(leases, pool, Map.of());
            Handle h = leases.claim(uniqueName("hold-sqlite-long")).orElseThrow();
            Holding holding = leases.hold(h, LeaseScope.root(), LOG);
            try (LeaseFailure.Restore restore = LeaseFailure.setFail(t -> { })) {
                // The transaction keeps the only connection until the scope ends: no renewal gets a turn.
                assertThrows(LeaseLostException.class, () -> leases.run(holding.scope(), h, LOG,
                        scope -> tx.inTransaction(GuardedTransactions.PRIMARY, c -> {
                            awaitIgnoringInterrupts(scope, STALLABLE.localDeadline().multipliedBy(3));
                            return null;
                        })));
                assertTrue(h.lost());
                assertInstanceOf(LeaseLostException.class, holding.scope().reason());
            } finally {
                holding.stop();
            }
        }
    }

    @Test
    void onSqliteAWorkTransactionShorterThanDeadlineMinusIntervalCostsNothing() throws Exception {
        try (TestDatabase db = TestDatabases.of("sqlite")) {
            DataSource pool = db.pool(1);
            Leases leases = db.leases(STALLABLE, pool);
            GuardedTransactions tx = new GuardedTransactions(leases, pool, Map.of());
            Handle h = leases.claim(uniqueName("hold-sqlite-short")).orElseThrow();
            Holding holding = leases.hold(h, LeaseScope.root(), LOG);
            // Longer than one attempt may wait, so the renewal due meanwhile gives up and tries again.
            Duration length = STALLABLE.localDeadline().minus(STALLABLE.renewInterval()).minusMillis(400);
            try {
                leases.run(holding.scope(), h, LOG, scope -> tx.inTransaction(GuardedTransactions.PRIMARY, c -> {
                    assertFalse(awaitIgnoringInterrupts(scope, length), "the scope ended inside the transaction");
                    return null;
                }));
                // The renewal that waited the transaction out lands once it commits.
                await().atMost(STALLABLE.localDeadline()).pollInterval(Duration.ofMillis(10))
                        .until(() -> System.nanoTime() - h.lastRenewedNanos() < STALLABLE.renewInterval().multipliedBy(3).toNanos());
                assertFalse(h.lost());
                assertFalse(holding.scope().isCancelled());
            } finally {
                holding.stop();
            }
        }
    }

    @Test
    void onSqliteBackToBackWorkTransactionsEachShorterThanHalfTheDeadlineCostNothing() throws Exception {
        try (TestDatabase db = TestDatabases.of("sqlite")) {
            // As the daemon opens it: the one connection handed out in turn (see InTurn).
            DataSource pool = InTurn.of(db.pool(1), 1, Duration.ofSeconds(10));
            Leases leases = db.leases(STALLABLE, pool);
            GuardedTransactions tx = new GuardedTransactions(leases, pool, Map.of());
            Handle h = leases.claim(uniqueName("hold-sqlite-back-to-back")).orElseThrow();
            Holding holding = leases.hold(h, LeaseScope.root(), LOG);
            // Each within the 750 ms an attempt waits, with room for the hand-over on a loaded machine;
            // together twice the local deadline, with no pause: only the renewal that waits out each
            // transaction keeps the lease.
            Duration length = STALLABLE.attemptTimeout().minusMillis(250);
            int transactions = (int) (STALLABLE.localDeadline().multipliedBy(2).toMillis() / length.toMillis()) + 1;
            try {
                leases.run(holding.scope(), h, LOG, scope -> {
                    for (int i = 0; i < transactions; i++) {
                        tx.inTransaction(GuardedTransactions.PRIMARY, c -> {
                            assertFalse(awaitIgnoringInterrupts(scope, length), "the scope ended inside the transaction");
                            return null;
                        });
                    }
                    return null;
                });
                assertFalse(h.lost());
                assertFalse(holding.scope().isCancelled());
            } finally {
                holding.stop();
            }
        }
    }

    /** Waits up to {@code atMost} for {@code scope} to end, as work that holds its transaction open would. */
    private static boolean awaitIgnoringInterrupts(LeaseScope scope, Duration atMost) {
        long until = System.nanoTime() + atMost.toNanos();
        while (true) {
            try {
                return scope.await(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
            } catch (InterruptedException e) {
                // The scope ending interrupts the work's thread; the loop then sees it ended.
            }
        }
    }
}
