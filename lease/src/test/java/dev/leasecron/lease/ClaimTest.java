package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.FrozenClock;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Claim, renew, verify and release: the four statements every lease stands on. */
class ClaimTest {

    static LeaseRow row(Leases leases, String name) {
        List<LeaseRow> rows = leases.views().rows(List.of(name));
        assertEquals(1, rows.size(), "one row for " + name);
        return rows.getFirst();
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void firstClaimInsertsTheRowWithTermOne(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("claim");

        Handle h = leases.claim(name).orElseThrow();

        assertEquals(1, h.term());
        assertEquals(32, h.holder().length());
        LeaseRow row = row(leases, name);
        assertEquals(h.holder(), row.holder());
        assertEquals(leases.instance(), row.instance());
        assertTrue(row.held());
        long expiresIn = row.expiresAtMs() - row.nowMs();
        assertTrue(expiresIn > 2000 && expiresIn <= 3000, "expires lease duration after the database's now: " + expiresIn);
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void claimOfAHeldNameIsRefusedWithoutError(TestDatabase db) {
        Leases a = db.leases(TestTimings.FAST);
        Leases b = db.leases(TestTimings.FAST);
        String name = uniqueName("held");
        a.claim(name).orElseThrow();

        assertTrue(b.claim(name).isEmpty());
        assertTrue(a.claim(name).isEmpty(), "not even the holder's process claims twice");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void releasedNameIsClaimedAtOnceWithTheNextTermAndAFreshHolder(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("release");
        Handle first = leases.claim(name).orElseThrow();
        first.release();

        Handle second = leases.claim(name).orElseThrow();

        assertEquals(first.term() + 1, second.term());
        assertNotEquals(first.holder(), second.holder());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void expiredLeaseIsClaimableByTheDatabaseClock(TestDatabase db) {
        Leases a = db.leases(TestTimings.EXPIRING);
        Leases b = db.leases(TestTimings.EXPIRING);
        String name = uniqueName("expiry");
        Handle first = a.claim(name).orElseThrow();

        Handle second = await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> b.claim(name), java.util.Optional::isPresent).orElseThrow();

        assertEquals(first.term() + 1, second.term());
        assertThrows(LeaseLostException.class, first::renew, "the old holder cannot renew");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void renewExtendsFromTheDatabasesNow(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("renew");
        Handle h = leases.claim(name).orElseThrow();
        long before = row(leases, name).expiresAtMs();

        // Until the database's now has moved past the claim's, so the renewal has a later expiry to write.
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> leases.readDatabaseClock().toEpochMilli() + TestTimings.FAST.leaseDuration().toMillis() > before);
        h.renew();

        assertTrue(row(leases, name).expiresAtMs() > before);
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void renewalsWithinOneMillisecondAreNotALoss(TestDatabase db) throws Exception {
        // A renewal in the millisecond of the one before changes nothing; it must still read as held.
        // MySQL and MariaDB drivers must count matched rows for that, not changed ones.
        try (FrozenClock frozen = FrozenClock.on(db)) {
            Leases leases = db.leases(TestTimings.FAST, frozen.pool());
            String name = uniqueName("same-ms");
            Handle h = leases.claim(name).orElseThrow();
            long claimedUntil = row(leases, name).expiresAtMs();

            for (int i = 0; i < 3; i++) {
                h.renew();
            }

            LeaseRow r = row(leases, name);
            assertEquals(claimedUntil, r.expiresAtMs(), "the renewals changed nothing: same millisecond as the claim");
            assertEquals(h.holder(), r.holder());
            assertTrue(r.held());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void renewOfAReleasedOrExpiredLeaseReportsLost(TestDatabase db) {
        Leases leases = db.leases(TestTimings.EXPIRING);
        Handle released = leases.claim(uniqueName("renew-released")).orElseThrow();
        released.release();
        assertThrows(LeaseLostException.class, released::renew);

        String name = uniqueName("renew-expired");
        Handle expired = leases.claim(name).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> !row(leases, name).held());
        assertThrows(LeaseLostException.class, expired::renew, "expired with no one to take it yet is lost too");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void releaseWithAStaleHolderLeavesTheNewHolderUntouched(TestDatabase db) {
        Leases leases = db.leases(TestTimings.EXPIRING);
        String name = uniqueName("stale-release");
        Handle stale = leases.claim(name).orElseThrow();
        Handle current = await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> leases.claim(name), java.util.Optional::isPresent).orElseThrow();

        assertThrows(LeaseLostException.class, stale::release);

        LeaseRow row = row(leases, name);
        assertEquals(current.holder(), row.holder());
        assertEquals(current.term(), row.term());
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void holderTokensAreNeverReused(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("tokens");
        Set<String> holders = new HashSet<>();
        long term = 0;
        for (int i = 0; i < 20; i++) {
            Handle h = leases.claim(name).orElseThrow();
            assertTrue(holders.add(h.holder()));
            assertEquals(term + 1, h.term(), "the term moves on every change of hands");
            term = h.term();
            h.release();
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void namesAreCheckedInUtf8BytesBeforeAnySql(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String unique = java.util.UUID.randomUUID().toString(); // 36 bytes
        String fits = unique + "é".repeat(77) + "x"; // 36 + 154 + 1 = 191 bytes
        assertTrue(leases.claim(fits).isPresent());
        assertEquals(fits, row(leases, fits).name(), "stored whole, not truncated");

        String tooLong = unique + "é".repeat(78); // 192 bytes in 114 characters
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> leases.claim(tooLong));
        assertTrue(e.getMessage().contains("192 bytes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> leases.claim(""));
        assertTrue(leases.views().rows(List.of(tooLong)).isEmpty());
    }
}
