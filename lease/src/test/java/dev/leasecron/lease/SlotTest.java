package dev.leasecron.lease;

import static dev.leasecron.lease.ClaimTest.row;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The scheduler's statements: claim an instant, finish, find, claim again, last. */
class SlotTest {
    /** Instants well in the past, so the database clock has reached every one of them. */
    private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant T2 = T1.plusSeconds(60);
    private static final Instant T3 = T2.plusSeconds(60);

    private static void awaitExpired(Leases leases, String name) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> !row(leases, name).held());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void claimRecordsTheInstantAsLastAndUnfinished(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        assertTrue(leases.slots().lastSlot(name).isEmpty(), "a job that never ran has no last instant");

        Handle h = leases.slots().claimSlot(name, T1).orElseThrow();

        assertEquals(Optional.of(T1), h.slot());
        assertTrue(h.superseded().isEmpty());
        LeaseRow r = row(leases, name);
        assertEquals(T1.toEpochMilli(), r.slotMs());
        assertEquals(T1.toEpochMilli(), r.unfinishedSlotMs());
        assertEquals(0, r.rerunSlotMs());
        assertEquals(Optional.of(T1), leases.slots().lastSlot(name));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void claimingInstancesAreTheOnesThatClaimedAnInstantOfTheNamesLately(TestDatabase db) {
        Leases a = db.leases(TestTimings.FAST);
        Leases b = db.leases(TestTimings.FAST);
        Leases longAgo = db.leases(TestTimings.FAST);
        Leases elsewhere = db.leases(TestTimings.FAST);
        String first = uniqueName("cron");
        String second = uniqueName("cron");
        String old = uniqueName("cron");
        Instant now = a.readDatabaseClock().truncatedTo(ChronoUnit.SECONDS);
        a.slots().claimSlot(first, now).orElseThrow();
        b.slots().claimSlot(second, now.minusSeconds(60)).orElseThrow();
        longAgo.slots().claimSlot(old, now.minus(Duration.ofHours(1))).orElseThrow();
        elsewhere.slots().claimSlot(uniqueName("cron"), now).orElseThrow();

        assertEquals(Set.of(a.instance(), b.instance()),
                a.views().claimingInstances(List.of(first, second, old, uniqueName("never")), Duration.ofMinutes(10)),
                "an instant an hour old, a name not asked about and a name never claimed count no instance");
        assertEquals(Set.of(a.instance()), b.views().claimingInstances(List.of(first, second), Duration.ofSeconds(30)));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void instantNotLaterThanTheOneOnRecordIsRefused(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        leases.slots().claimSlot(name, T2).orElseThrow().finish(T2);

        assertTrue(leases.slots().claimSlot(name, T2).isEmpty(), "the same instant");
        assertTrue(leases.slots().claimSlot(name, T1).isEmpty(), "an earlier instant");
        assertTrue(leases.slots().claimSlot(name, T3).isPresent(), "a later one");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void laterInstantIsRefusedWhileTheNameIsHeld(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        leases.slots().claimSlot(name, T1).orElseThrow();

        assertTrue(leases.slots().claimSlot(name, T2).isEmpty());
        assertEquals(T1.toEpochMilli(), row(leases, name).slotMs(), "a refused claim records nothing");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void finishTakesThePassedInstantsAlongSoTheyStaySkipped(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        Handle h = leases.slots().claimSlot(name, T1).orElseThrow();

        h.finish(T3);

        LeaseRow r = row(leases, name);
        assertEquals(T3.toEpochMilli(), r.slotMs());
        assertEquals(0, r.unfinishedSlotMs());
        assertFalse(r.held(), "finish gives the name back");
        assertTrue(leases.slots().claimSlot(name, T2).isEmpty(), "an overrun instant is never claimed");
        assertTrue(leases.slots().claimSlot(name, T3).isEmpty(), "nor the last one passed");
        assertEquals(Optional.of(T3), leases.slots().lastSlot(name));
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void finishDoesNotTakeAlongAnInstantTheDatabaseClockHasNotReached(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        Instant ahead = leases.readDatabaseClock().plus(1, ChronoUnit.HOURS);
        Handle h = leases.slots().claimSlot(name, T1).orElseThrow();

        h.finish(ahead);

        assertEquals(T1.toEpochMilli(), row(leases, name).slotMs());
        assertTrue(leases.slots().claimSlot(name, ahead).isPresent(), "the other replicas can still claim it");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void finishEarlierThanTheInstantOnRecordKeepsTheRecord(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        leases.slots().claimSlot(name, T2).orElseThrow().finish(T1);

        assertEquals(T2.toEpochMilli(), row(leases, name).slotMs(), "slot_ms never decreases");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void finishAfterTheLeaseChangedHandsRecordsTheEndWithoutPassed(TestDatabase db) {
        Leases leases = db.leases(TestTimings.EXPIRING);
        String name = uniqueName("cron");
        Handle first = leases.slots().claimSlot(name, T1).orElseThrow();
        awaitExpired(leases, name);
        Unfinished found = leases.slots().unfinishedSlots(List.of(name)).getFirst();
        Handle rerun = leases.slots().claimRerun(found).orElseThrow();

        assertThrows(LeaseLostException.class, () -> first.finish(T3));

        LeaseRow r = row(leases, name);
        assertEquals(0, r.unfinishedSlotMs(), "the end is recorded");
        assertEquals(T1.toEpochMilli(), r.slotMs(), "passed is not taken along without the lease");
        assertEquals(rerun.holder(), r.holder(), "the name stays with its new holder");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void finishOfAHandleKnownLostReturnsAndRecordsTheEndWithoutGivingTheNameBack(TestDatabase db) {
        // Known lost at the local deadline while the database still counts the lease as this holder's.
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        Handle h = leases.slots().claimSlot(name, T1).orElseThrow();
        h.markLost(new LeaseLostException("no renewal within the local deadline (test)"));

        h.finish(T3); // returns: the holder knows already

        LeaseRow r = row(leases, name);
        assertEquals(0, r.unfinishedSlotMs(), "the end is recorded");
        assertEquals(T1.toEpochMilli(), r.slotMs(), "passed is not taken along without the lease");
        assertTrue(r.held(), "giving the name back was not tried: " + r);
        assertEquals(h.holder(), r.holder());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void finishAfterALaterInstantWasClaimedLeavesThatOneUnfinished(TestDatabase db) {
        Leases leases = db.leases(TestTimings.EXPIRING);
        String name = uniqueName("cron");
        Handle first = leases.slots().claimSlot(name, T1).orElseThrow();
        awaitExpired(leases, name);
        leases.slots().claimSlot(name, T2).orElseThrow();

        assertThrows(LeaseLostException.class, () -> first.finish(T2));

        assertEquals(T2.toEpochMilli(), row(leases, name).unfinishedSlotMs());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void cutShortRoundIsFoundAndClaimedAgainExactlyOnce(TestDatabase db) {
        Leases a = db.leases(TestTimings.FAST);
        Leases b = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        a.slots().claimSlot(name, T1).orElseThrow().release(); // cut short

        List<Unfinished> found = b.slots().unfinishedSlots(List.of(name));
        assertEquals(1, found.size());
        assertEquals(T1, found.getFirst().slot());
        assertFalse(found.getFirst().rerun());

        Optional<Handle> won = b.slots().claimRerun(found.getFirst());
        Optional<Handle> lost = a.slots().claimRerun(found.getFirst());
        assertTrue(won.isPresent());
        assertTrue(lost.isEmpty(), "the term found holds the row: claimed again elsewhere");
        assertTrue(won.get().rerun());
        assertEquals(Optional.of(T1), won.get().slot());
        assertEquals(T1.toEpochMilli(), row(a, name).rerunSlotMs());

        won.get().release(); // cut short a second time
        assertTrue(b.slots().unfinishedSlots(List.of(name)).isEmpty(), "never a third round");
        Unfinished givenUp = a.slots().claimSlot(name, T2).orElseThrow().superseded().orElseThrow();
        assertEquals(T1, givenUp.slot());
        assertTrue(givenUp.rerun(), "the instant given up had been run a second time too");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void rerunThatRunsToItsEndFinishesTheInstant(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        leases.slots().claimSlot(name, T1).orElseThrow().release();
        Handle rerun = leases.slots().claimRerun(leases.slots().unfinishedSlots(List.of(name)).getFirst()).orElseThrow();

        rerun.finish(T1);

        assertEquals(0, row(leases, name).unfinishedSlotMs());
        assertTrue(leases.slots().claimSlot(name, T2).orElseThrow().superseded().isEmpty());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void claimOfALaterInstantGivesUpTheUnfinishedOne(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        leases.slots().claimSlot(name, T1).orElseThrow().release();

        Handle h = leases.slots().claimSlot(name, T2).orElseThrow();

        Unfinished given = h.superseded().orElseThrow();
        assertEquals(T1, given.slot());
        assertEquals(name, given.name());
        assertFalse(given.rerun());
        assertTrue(leases.slots().unfinishedSlots(List.of(name)).isEmpty(), "never runs again");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void findSkipsInstantsHeldFinishedOrNeverClaimed(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String held = uniqueName("held");
        String finished = uniqueName("finished");
        String cutA = uniqueName("cut-a");
        String cutB = uniqueName("cut-b");
        String never = uniqueName("never");
        leases.slots().claimSlot(held, T1).orElseThrow();
        leases.slots().claimSlot(finished, T1).orElseThrow().finish(T1);
        leases.slots().claimSlot(cutA, T1).orElseThrow().release();
        leases.slots().claimSlot(cutB, T2).orElseThrow().release();

        List<Unfinished> found = leases.slots().unfinishedSlots(List.of(held, finished, cutA, cutB, never));

        assertEquals(List.of(cutA, cutB), found.stream().map(Unfinished::name).sorted(
                java.util.Comparator.comparing(List.of(cutA, cutB)::indexOf)).toList());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void claimAgainIsRefusedOnceTheFirstRoundRecordedItsEnd(TestDatabase db) {
        Leases leases = db.leases(TestTimings.EXPIRING);
        String name = uniqueName("cron");
        Handle slow = leases.slots().claimSlot(name, T1).orElseThrow();
        awaitExpired(leases, name);
        Unfinished found = leases.slots().unfinishedSlots(List.of(name)).getFirst();

        slow.finish(T1); // nobody had claimed: the holder still matches, and the end is recorded

        assertTrue(leases.slots().claimRerun(found).isEmpty());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void claimAgainIsRefusedWhileTheNameIsHeld(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("cron");
        leases.slots().claimSlot(name, T1).orElseThrow().release();
        Unfinished found = leases.slots().unfinishedSlots(List.of(name)).getFirst();
        leases.claim(name).orElseThrow(); // the plain claim moves the term

        assertTrue(leases.slots().claimRerun(found).isEmpty());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void finishOfAPlainClaimIsRefused(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        Handle h = leases.claim(uniqueName("plain")).orElseThrow();
        assertThrows(IllegalStateException.class, () -> h.finish(T1));
    }
}
