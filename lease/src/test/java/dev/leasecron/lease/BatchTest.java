package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.BorrowCounting;
import dev.leasecron.lease.testing.Outage;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import dev.leasecron.lease.testing.TestTimings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The batch forms beyond one statement's worth of names, and when the database does not answer. */
class BatchTest {
    private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant T2 = T1.plusSeconds(60);

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void batchesLargerThanOneStatementAnswerForEveryName(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        List<String> names = moreThanTwoStatementsOfNames("batch-large");

        BatchResult<String, Optional<Handle>> first = leases.slots().claimSlots(T1, names);
        assertTrue(first.complete(), () -> "failed: " + first.failed().values().stream().distinct().toList());
        assertEquals(names, List.copyOf(first.answered().keySet()), "every name, in the order given");
        List<Handle> handles = first.answered().values().stream().map(Optional::orElseThrow).toList();
        assertTrue(handles.stream().allMatch(h -> h.term() == 1 && h.superseded().isEmpty()));
        assertTrue(leases.batches().renewAll(handles).answered().values().stream().allMatch(b -> b), "all renewed");
        assertTrue(leases.batches().releaseAll(handles).answered().values().stream().allMatch(b -> b), "all released");

        BatchResult<String, Optional<Handle>> second = leases.slots().claimSlots(T2, names);
        Map<Handle, Instant> passed = new LinkedHashMap<>();
        for (String name : names) {
            Handle h = second.get(name).orElseThrow();
            assertEquals(2, h.term());
            assertEquals(T1, h.superseded().orElseThrow().slot(), "the instant cut short is given up");
            passed.put(h, T2);
        }
        assertTrue(leases.batches().finishAll(passed).answered().values().stream().allMatch(b -> b), "all finished");
        for (LeaseRow r : leases.views().rows(names)) {
            assertEquals(T2.toEpochMilli(), r.slotMs());
            assertEquals(0, r.unfinishedSlotMs());
            assertEquals(0, r.expiresAtMs());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void finishAllAnswersAHandleKnownLostAsFinishReturnsAndOneFoundLostAsFinishThrows(TestDatabase db) throws Exception {
        Leases leases = db.leases(TestTimings.FAST);
        String knownName = uniqueName("batch-known-lost");
        String foundName = uniqueName("batch-found-lost");
        Handle known = leases.slots().claimSlot(knownName, T1).orElseThrow();
        known.markLost(new LeaseLostException("no renewal within the local deadline (test)"));
        Handle found = leases.slots().claimSlot(foundName, T1).orElseThrow();
        db.expire(foundName); // lost behind the holder's back, and taken: only the finish finds out
        Leases stranger = db.leases(TestTimings.FAST);
        Handle taker = stranger.slots().claimRerun(stranger.slots().unfinishedSlots(List.of(foundName)).getFirst()).orElseThrow();

        Map<Handle, Instant> passed = new LinkedHashMap<>();
        passed.put(known, T2);
        passed.put(found, T2);
        BatchResult<Handle, Boolean> result = leases.batches().finishAll(passed);

        assertEquals(Map.of(known, true, found, false), result.answered());
        LeaseRow k = leases.views().rows(List.of(knownName)).getFirst();
        assertEquals(0, k.unfinishedSlotMs(), "the end is recorded");
        assertEquals(T1.toEpochMilli(), k.slotMs(), "passed is not taken along without the lease");
        assertTrue(k.held(), "giving the name back was not tried: " + k);
        LeaseRow f = leases.views().rows(List.of(foundName)).getFirst();
        assertEquals(0, f.unfinishedSlotMs(), "the end is recorded");
        assertEquals(T1.toEpochMilli(), f.slotMs());
        assertEquals(taker.holder(), f.holder(), "the name stays with its new holder");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void namesWithQuotesBackslashesAndBracesTravelIntactThroughEveryBatchStatement(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String unique = uniqueName("odd");
        // What an array value or a derived table could mistake for syntax, and a name that is all of it.
        List<String> names = List.of("a\"b", "a\\b", "a,b", "{a}", " a b ", "NULL", "é✓", "\\\"{,}", "'; --")
                .stream().map(n -> unique + n).toList();

        BatchResult<String, Optional<Handle>> first = leases.slots().claimSlots(T1, names); // inserts the rows
        List<Handle> held = names.stream().map(n -> first.get(n).orElseThrow()).toList();
        assertTrue(leases.batches().releaseAll(held).answered().values().stream().allMatch(b -> b), "all released");
        assertEquals(Set.copyOf(names), leases.slots().unfinishedSlots(names).stream().map(Unfinished::name).collect(Collectors.toSet()),
                "the sweep finds every instant cut short under its own name");

        BatchResult<String, Optional<Handle>> second = leases.slots().claimSlots(T2, names); // writes the rows there
        Map<Handle, Instant> passed = new LinkedHashMap<>();
        names.forEach(n -> passed.put(second.get(n).orElseThrow(), T2));
        assertTrue(leases.batches().finishAll(passed).answered().values().stream().allMatch(b -> b), "all finished");
        List<LeaseRow> rows = leases.views().rows(names);
        assertEquals(Set.copyOf(names), rows.stream().map(LeaseRow::name).collect(Collectors.toSet()));
        for (LeaseRow r : rows) {
            assertEquals(T2.toEpochMilli(), r.slotMs(), r.name());
            assertEquals(0, r.unfinishedSlotMs(), r.name());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aClaimInPartsHandsOverEachStatementsNamesOnceEach(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        List<String> names = moreThanTwoStatementsOfNames("batch-parts");
        List<BatchResult<String, Optional<Handle>>> parts = new ArrayList<>();

        leases.slots().claimSlots(T1, names, Set.of(), parts::add);

        assertEquals(List.of(7, Leases.MAX_BATCH, Leases.MAX_BATCH),
                parts.stream().map(p -> p.answered().size()).sorted().toList(), "one part per statement");
        List<String> handedOver = parts.stream().flatMap(p -> p.answered().keySet().stream()).sorted().toList();
        assertEquals(names.stream().sorted().toList(), handedOver, "every name once");
        assertTrue(parts.stream().allMatch(p -> p.complete()
                && p.answered().values().stream().allMatch(h -> h.orElseThrow().term() == 1)));
    }

    @Test
    void onMariadbABatchWriteAndItsReadBackShareTheTransactionsOneConnection() {
        try (TestDatabase db = TestDatabases.of("mariadb")) {
            AtomicLong connections = new AtomicLong();
            DataSource counting = BorrowCounting.wrap(db.pool(4), connections);
            Leases leases = db.leases(TestTimings.FAST, counting);
            leases.keepHistory(false); // its rows are written on a thread of their own, at any time
            List<String> names = List.of(uniqueName("one-conn-a"), uniqueName("one-conn-b"));
            List<Handle> handles = leases.slots().claimSlots(T1, names).answered().values().stream()
                    .map(Optional::orElseThrow).toList();

            connections.set(0);
            assertTrue(leases.batches().renewAll(handles).answered().values().stream().allMatch(b -> b));

            // Without RETURNING, the read-back finds the rows written by their tokens; only the write's
            // own transaction, whose row locks keep them as written, makes that read exact.
            assertEquals(1L, connections.get(), "the write and its read-back ran on one connection");
        }
    }

    @Test
    void onPostgresAClaimWaitsForARoundEndingUnderWayAndSeesItsOutcome() throws Exception {
        try (TestDatabase db = TestDatabases.of("postgres"); ExecutorService claimer = Executors.newSingleThreadExecutor()) {
            DataSource pool = db.pool(4);
            Leases leases = db.leases(TestTimings.FAST, pool);
            String name = uniqueName("locked-claim");
            Handle cutShort = leases.slots().claimSlot(name, T1).orElseThrow();
            try (Connection ending = pool.getConnection(); Connection watching = pool.getConnection()) {
                execute(watching, "UPDATE gst_leases SET expires_at_ms = 1 WHERE name = ?", name); // lease lost
                ending.setAutoCommit(false);
                // The round's end, recorded without its lease and not committed yet: its transaction holds the row.
                execute(ending, "UPDATE gst_leases SET unfinished_slot_ms = 0 WHERE name = ?", name);

                Future<BatchResult<String, Optional<Handle>>> claim = claimer.submit(() -> leases.slots().claimSlots(T2, List.of(name)));
                await().atMost(Duration.ofSeconds(10)).until(() -> claimsWaitingOnALock(watching) == 1);
                ending.commit();

                Handle h = claim.get(10, TimeUnit.SECONDS).get(name).orElseThrow();
                assertEquals(cutShort.term() + 1, h.term());
                // A read that did not wait would have seen T1 unfinished, and given it up.
                assertTrue(h.superseded().isEmpty(), "the claim read the row as the ending left it");
            }
        }
    }

    @Test
    void onPostgresAClaimHandsOverTheNamesNobodyHoldsBeforeWaitingForTheOneHeld() throws Exception {
        try (TestDatabase db = TestDatabases.of("postgres"); ExecutorService claimer = Executors.newSingleThreadExecutor()) {
            DataSource pool = db.pool(4);
            Leases leases = db.leases(TestTimings.FAST, pool);
            String free = uniqueName("skip-free");
            String held = uniqueName("skip-held");
            Map<Handle, Instant> ended = new LinkedHashMap<>();
            leases.slots().claimSlots(T1, List.of(free, held)).answered().values().forEach(h -> ended.put(h.orElseThrow(), T1));
            assertTrue(leases.batches().finishAll(ended).complete());
            try (Connection renewing = pool.getConnection(); Connection watching = pool.getConnection()) {
                renewing.setAutoCommit(false);
                // A transaction that holds the row without taking the lease, as a statement of another round would.
                execute(renewing, "UPDATE gst_leases SET instance = instance WHERE name = ?", held);

                List<BatchResult<String, Optional<Handle>>> parts = new java.util.concurrent.CopyOnWriteArrayList<>();
                Future<?> claim = claimer.submit(() -> leases.slots().claimSlots(T2, List.of(free, held), Set.of(), parts::add));
                await().atMost(Duration.ofSeconds(10)).until(() -> !parts.isEmpty() && claimsWaitingOnALock(watching) == 1);
                assertEquals(Set.of(free), parts.getFirst().answered().keySet(), "the free name answered first, alone");
                assertTrue(parts.getFirst().get(free).isPresent());
                renewing.commit();

                claim.get(10, TimeUnit.SECONDS);
                assertEquals(2, parts.size());
                assertTrue(parts.get(1).get(held).isPresent(), "the name held a moment is claimed, not refused");
            }
        }
    }

    private static void execute(Connection c, String sql, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, name);
            assertEquals(1, s.executeUpdate());
        }
    }

    private static int claimsWaitingOnALock(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE wait_event_type = 'Lock' AND query LIKE 'WITH free AS%'");
                ResultSet r = s.executeQuery()) {
            r.next();
            return r.getInt(1);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aNameGivenTwiceIsClaimedOnce(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("batch-twice");

        BatchResult<String, Optional<Handle>> r = leases.slots().claimSlots(T1, List.of(name, name));

        assertEquals(1, r.answered().size());
        assertTrue(r.get(name).isPresent());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aDatabaseThatDoesNotAnswerFailsEveryNameOfTheBatch(TestDatabase db) {
        Outage outage = new Outage(db.pool(2));
        Leases leases = db.leases(TestTimings.FAST, outage.dataSource());
        List<String> names = List.of(uniqueName("batch-down"), uniqueName("batch-down"));
        Handle held = leases.slots().claimSlots(T1, names).get(names.getFirst()).orElseThrow();
        outage.down();

        BatchResult<String, Optional<Handle>> claimed = leases.slots().claimSlots(T2, names);
        BatchResult<Handle, Boolean> renewed = leases.batches().renewAll(List.of(held));

        assertEquals(names, List.copyOf(claimed.failed().keySet()));
        assertTrue(claimed.answered().isEmpty());
        assertThrows(LeaseDatabaseException.class, () -> claimed.get(names.getFirst()));
        assertThrows(LeaseDatabaseException.class, () -> renewed.get(held), "a failed renewal is not a loss");
        outage.up();
        assertTrue(leases.batches().renewAll(List.of(held)).get(held));
    }

    private static List<String> moreThanTwoStatementsOfNames(String prefix) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 2 * Leases.MAX_BATCH + 7; i++) {
            names.add(uniqueName(prefix));
        }
        return names;
    }
}
