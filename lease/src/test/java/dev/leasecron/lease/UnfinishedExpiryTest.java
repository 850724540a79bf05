package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The look for cut-short instants also says when a lease still holding one expires, so the rerun
 * sweep can be there the moment it does.
 */
class UnfinishedExpiryTest {
    private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Duration LEASE = TestTimings.FAST.leaseDuration();

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aHeldUnfinishedInstantReportsItsExpiryWithinTheLookAheadOnly(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String name = uniqueName("expiring");
        Handle dead = leases.slots().claimSlot(name, T1).orElseThrow(); // never renewed: its holder died

        UnfinishedSlots near = leases.slots().unfinishedSlots(List.of(name), LEASE.plusSeconds(2));
        assertEquals(List.of(), near.free(), "held: not free to claim again yet");
        Duration left = near.nextExpiry().orElseThrow(() -> new AssertionError("the expiry is within the look-ahead"));
        assertTrue(left.isPositive() && left.compareTo(LEASE) <= 0, "expires within the lease duration: " + left);
        assertTrue(left.compareTo(LEASE.minusSeconds(1)) > 0, "by the database clock, just after the claim: " + left);

        UnfinishedSlots far = leases.slots().unfinishedSlots(List.of(name), LEASE.minusSeconds(1));
        assertTrue(far.nextExpiry().isEmpty(), "an expiry past the look-ahead is not reported: " + far);
        assertTrue(leases.slots().unfinishedSlots(List.of(uniqueName("other")), LEASE.plusSeconds(2)).nextExpiry().isEmpty(),
                "only the names asked about");

        dead.release();
        UnfinishedSlots released = leases.slots().unfinishedSlots(List.of(name), LEASE.plusSeconds(2));
        assertEquals(List.of(T1), released.free().stream().map(Unfinished::slot).toList());
        assertTrue(released.nextExpiry().isEmpty(), "a free instant has no expiry to wait for");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRoundThatRanToItsEndOrWasRerunHasNoExpiryToWaitFor(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String finished = uniqueName("finished");
        String rerun = uniqueName("rerun");
        leases.slots().claimSlot(finished, T1).orElseThrow().finish(T1);
        leases.slots().claimSlot(rerun, T1).orElseThrow().release();
        leases.slots().claimRerun(leases.slots().unfinishedSlots(List.of(rerun)).getFirst()).orElseThrow(); // held, rerun_slot_ms = slot_ms

        UnfinishedSlots found = leases.slots().unfinishedSlots(List.of(finished, rerun), LEASE.plusSeconds(2));

        assertEquals(List.of(), found.free());
        assertTrue(found.nextExpiry().isEmpty(), "neither can be claimed again, so neither is waited for: " + found);
    }
}
