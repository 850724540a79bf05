package dev.leasecron.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Claims made ready ahead of their instant claim nothing until sent, and are sent once. */
class SlotClaimsTest {
    private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant T2 = T1.plusSeconds(60);

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void preparedClaimsTakeNothingUntilSentThenClaimLikeClaimSlots(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String seen = TestDatabase.uniqueName("prepared-seen");
        String fresh = TestDatabase.uniqueName("prepared-fresh");
        leases.claimSlots(T1, List.of(seen)).get(seen).orElseThrow().finish(T1);

        SlotClaims ready = leases.prepareSlotClaims(T2, List.of(seen, fresh));
        Handle meanwhile = leases.claimSlot(seen, T2).orElseThrow();
        assertEquals(Optional.empty(), leases.lastSlot(fresh), "preparing wrote nothing");

        Map<String, Optional<Handle>> answered = new HashMap<>();
        ready.send(part -> answered.putAll(part.answered()));
        assertEquals(Optional.empty(), answered.get(seen), "claimed meanwhile by another: refused when sent");
        assertTrue(answered.get(fresh).isPresent(), "a name never claimed is claimed when sent");
        assertEquals(Optional.of(T2), leases.lastSlot(fresh));
        meanwhile.release();
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void preparedClaimsAreSentOnce(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        SlotClaims ready = leases.prepareSlotClaims(T1, List.of(TestDatabase.uniqueName("prepared-once")));
        ready.send(part -> { });
        assertThrows(IllegalStateException.class, () -> ready.send(part -> { }));
    }
}
