package dev.leasecron.app.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.sql.LeaseRow;
import dev.leasecron.lease.testing.BorrowCounting;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import dev.leasecron.lease.testing.TestTimings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DueClaimsTest {
    private final LeaseScope claiming = LeaseScope.root();
    private final AtomicLong borrowed = new AtomicLong();

    @AfterEach
    void stopClaiming() {
        claiming.cancel("test over");
    }

    private Leases leases(TestDatabase db) {
        return db.leases(TestTimings.FAST, BorrowCounting.wrap(db.pool(4), borrowed));
    }

    private DueClaims dueClaims(Leases leases) {
        return new DueClaims(leases, new DueClock(leases), claiming, () -> 1);
    }

    /** Another replica ran {@code slot} under {@code name} already: this replica's claim of it is refused. */
    private static void aPeerRan(TestDatabase db, String name, Instant slot) {
        db.leases(TestTimings.FAST, db.pool(2)).claimSlot(name, slot).orElseThrow().finish(slot);
    }

    /** Every second, on the second. */
    private static final Instants EVERY_SECOND = new Instants() {
        @Override
        public Optional<Instant> next(Instant after) {
            return Optional.of(after.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1));
        }

        @Override
        public Optional<Instant> latestAtOrBefore(Instant at) {
            return Optional.of(at.truncatedTo(ChronoUnit.SECONDS));
        }
    };

    /** Claims {@code name} as a job loop would, on a schedule of every second. */
    private static CompletableFuture<DueAnswer> claimFromLoop(DueClaims claims, String name, Instant slot, LeaseScope scope) {
        return claims.claim(name, slot, EVERY_SECOND, () -> {}, scope);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void claimsMadeAheadGoOutTogetherWhenTheDatabaseClockReachesTheirInstant(TestDatabase db) throws Exception {
        Leases leases = leases(db);
        DueClaims claims = dueClaims(leases);
        int jobs = Leases.MAX_BATCH + 100;
        List<String> names = IntStream.range(0, jobs).mapToObj(i -> TestDatabase.uniqueName("due-" + i)).toList();
        Instant slot = leases.readDatabaseClock().plusMillis(800);
        long borrowedBefore = borrowed.get();

        List<CompletableFuture<DueAnswer>> answers = new ArrayList<>();
        names.forEach(name -> answers.add(claimFromLoop(claims, name, slot, LeaseScope.root())));
        await().atMost(Duration.ofSeconds(20)).until(() -> answers.stream().allMatch(CompletableFuture::isDone));

        for (CompletableFuture<DueAnswer> answer : answers) {
            assertTrue(answer.get().won().isPresent(), "every claim of a free instant is won");
        }
        List<LeaseRow> rows = leases.rows(names);
        assertEquals(jobs, rows.size());
        for (LeaseRow row : rows) {
            assertEquals(slot.toEpochMilli(), row.slotMs(), row.name());
            // The lease runs from the claim: claimed by the database clock no earlier than the instant.
            long claimedAtMs = row.expiresAtMs() - TestTimings.FAST.leaseDuration().toMillis();
            assertTrue(claimedAtMs >= slot.toEpochMilli(), row.name() + " claimed " + (slot.toEpochMilli() - claimedAtMs) + " ms early");
        }
        // A statement or two per 500 names (the first claim of a name inserts its row), not one per job.
        long statements = borrowed.get() - borrowedBefore;
        assertTrue(statements <= 8, statements + " connections borrowed for " + jobs + " claims");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aClaimWhoseLoopStopsBeforeItsInstantIsNeverSent(TestDatabase db) throws Exception {
        Leases leases = leases(db);
        DueClaims claims = dueClaims(leases);
        String stopped = TestDatabase.uniqueName("stopped");
        String kept = TestDatabase.uniqueName("kept");
        Instant slot = leases.readDatabaseClock().plusMillis(600);
        LeaseScope loop = LeaseScope.root();

        CompletableFuture<DueAnswer> withdrawn = claimFromLoop(claims, stopped, slot, loop);
        CompletableFuture<DueAnswer> sent = claimFromLoop(claims, kept, slot, LeaseScope.root());
        await().until(() -> claims.waiting() == 2);
        loop.cancel("job removed");

        assertEquals(DueAnswer.of(slot, Optional.empty()), withdrawn.get());
        assertTrue(sent.get().won().isPresent());
        assertEquals(Optional.empty(), leases.lastSlot(stopped), "a withdrawn claim never reaches the table");
        assertEquals(Optional.of(slot), leases.lastSlot(kept));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void anInstantRegisteredAfterALaterOneIsNotHeldUpByIt(TestDatabase db) throws Exception {
        Leases leases = leases(db);
        DueClaims claims = dueClaims(leases);
        Instant now = leases.readDatabaseClock();
        Instant late = now.plusSeconds(8);
        Instant soon = now.plusMillis(300);
        Map<String, Instant> answeredAt = new ConcurrentHashMap<>();

        LeaseScope laterLoop = LeaseScope.root();
        CompletableFuture<DueAnswer> later = claimFromLoop(claims, TestDatabase.uniqueName("later"), late, laterLoop);
        await().until(() -> claims.waiting() == 1);
        claimFromLoop(claims, TestDatabase.uniqueName("sooner"), soon, LeaseScope.root())
                .thenRun(() -> answeredAt.put("sooner", leases.clock().now()));

        await().atMost(Duration.ofSeconds(5)).until(() -> answeredAt.containsKey("sooner"));
        // The watcher was sleeping towards the later instant's last stretch (7 s away); the sooner one
        // woke it.
        assertTrue(answeredAt.get("sooner").isBefore(late.minusSeconds(4)), "answered at " + answeredAt.get("sooner"));
        assertFalse(later.isDone());
        laterLoop.cancel("test over");
        assertEquals(DueAnswer.of(late, Optional.empty()), later.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRefusedClaimMovesOnToTheNextInstantWithoutAnsweringItsLoop(TestDatabase db) throws Exception {
        Leases leases = leases(db);
        DueClaims claims = dueClaims(leases);
        String name = TestDatabase.uniqueName("moves-on");
        Instant first = leases.readDatabaseClock().plusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
        aPeerRan(db, name, first);
        AtomicInteger refused = new AtomicInteger();

        DueAnswer answer = claims.claim(name, first, EVERY_SECOND, refused::incrementAndGet, LeaseScope.root())
                .get(10, TimeUnit.SECONDS);

        Instant second = first.plusSeconds(1);
        assertEquals(second, answer.slot(), "the loop hears of the instant it won, not of the one refused");
        assertTrue(answer.won().isPresent());
        assertEquals(1, refused.get(), "the refusal moved on from is reported");
        assertEquals(Optional.of(second), leases.lastSlot(name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aClaimRefusedAtTheInstantBeforeGoesOutAfterTheClaimsOfTheReplicaThatWonIt(TestDatabase db) throws Exception {
        Leases leases = leases(db);
        DueClaims claims = dueClaims(leases);
        String name = TestDatabase.uniqueName("put-off");
        Instant first = leases.readDatabaseClock().plusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
        aPeerRan(db, name, first);

        DueAnswer answer = claimFromLoop(claims, name, first, LeaseScope.root()).get(10, TimeUnit.SECONDS);

        Instant second = first.plusSeconds(1);
        assertEquals(second, answer.slot());
        LeaseRow row = leases.rows(List.of(name)).getFirst();
        long claimedAtMs = row.expiresAtMs() - TestTimings.FAST.leaseDuration().toMillis();
        long after = claimedAtMs - second.toEpochMilli();
        assertTrue(after >= DueClaims.AFTER_REFUSAL.toMillis(), "claimed " + after + " ms after its instant, by the database clock");
    }

    /** Row locks another transaction holds: the database servers. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void aClaimPutOffGoesOutOnlyOnceTheClaimsOfItsInstantHaveReturned(String kind) throws Exception {
        TestDatabase db = TestDatabases.of(kind);
        Leases leases = leases(db);
        DueClaims claims = dueClaims(leases);
        String kept = TestDatabase.uniqueName("kept");
        String putOff = TestDatabase.uniqueName("put-off");
        Instant first = leases.readDatabaseClock().plusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
        Instant second = first.plusSeconds(1);
        aPeerRan(db, putOff, first);
        CompletableFuture<DueAnswer> putOffAnswer = claimFromLoop(claims, putOff, first, LeaseScope.root());
        DueAnswer keptFirst = claimFromLoop(claims, kept, first, LeaseScope.root()).get(10, TimeUnit.SECONDS);
        keptFirst.won().orElseThrow().finish(first);

        CompletableFuture<DueAnswer> keptSecond;
        Instant released;
        try (Connection c = db.pool(2).getConnection()) {
            // The claim of `kept` at the second instant waits for this lock, and so its statement's return.
            c.setAutoCommit(false);
            try (PreparedStatement lock = c.prepareStatement("SELECT name FROM gst_leases WHERE name = ? FOR UPDATE")) {
                lock.setString(1, kept);
                lock.executeQuery().close();
            }
            keptSecond = claimFromLoop(claims, kept, second, LeaseScope.root());
            Instant pastPutOff = second.plus(DueClaims.AFTER_REFUSAL).plusMillis(300);
            await().atMost(Duration.ofSeconds(5)).until(() -> leases.readDatabaseClock().isAfter(pastPutOff));
            assertFalse(putOffAnswer.isDone(), "the claim put off waits for the claims of its instant");
            released = leases.readDatabaseClock();
            c.commit();
        }

        assertTrue(keptSecond.get(10, TimeUnit.SECONDS).won().isPresent());
        DueAnswer answer = putOffAnswer.get(10, TimeUnit.SECONDS);
        assertEquals(second, answer.slot());
        assertTrue(answer.won().isPresent(), "nobody else claims it");
        long claimedAtMs = leases.rows(List.of(putOff)).getFirst().expiresAtMs() - TestTimings.FAST.leaseDuration().toMillis();
        assertTrue(claimedAtMs >= released.toEpochMilli(), "claimed " + (released.toEpochMilli() - claimedAtMs)
                + " ms before the claims of its instant returned");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRefusedClaimWithNoInstantLeftIsAnsweredRefused(TestDatabase db) throws Exception {
        Leases leases = leases(db);
        DueClaims claims = dueClaims(leases);
        String name = TestDatabase.uniqueName("last");
        Instant only = leases.readDatabaseClock().plusMillis(500);
        aPeerRan(db, name, only);
        Instants once = new Instants() {
            @Override
            public Optional<Instant> next(Instant after) {
                return Optional.empty();
            }

            @Override
            public Optional<Instant> latestAtOrBefore(Instant at) {
                return Optional.of(only);
            }
        };
        AtomicInteger refused = new AtomicInteger();

        DueAnswer answer = claims.claim(name, only, once, refused::incrementAndGet, LeaseScope.root())
                .get(10, TimeUnit.SECONDS);

        assertEquals(DueAnswer.of(only, Optional.empty()), answer);
        assertEquals(0, refused.get(), "the refusal answered is the loop's to report");
    }
}
