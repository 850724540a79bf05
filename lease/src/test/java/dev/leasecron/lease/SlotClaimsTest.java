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
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
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
        assertThrows(IllegalStateException.class, ready::parts);
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void partsAreOneStatementEachAndEachClaimsItsOwnNames(TestDatabase db) {
        Leases leases = db.leases(TestTimings.FAST);
        String prefix = TestDatabase.uniqueName("parts");
        List<String> names = IntStream.range(0, Leases.MAX_BATCH + 1).mapToObj(i -> prefix + "-" + i).toList();
        SlotClaims ready = leases.prepareSlotClaims(T1, names);

        List<SlotClaims> parts = ready.parts();
        assertEquals(2, parts.size(), "one part per statement of at most MAX_BATCH names");
        assertEquals(Set.copyOf(names), parts.stream().flatMap(p -> p.names().stream()).collect(Collectors.toSet()));
        assertEquals(names.size(), parts.stream().mapToInt(p -> p.names().size()).sum(), "every name in one part");
        assertThrows(IllegalStateException.class, () -> ready.send(part -> { }), "cut into parts: sent through them");

        for (SlotClaims part : parts) {
            Map<String, Optional<Handle>> answered = new HashMap<>();
            part.send(result -> answered.putAll(result.answered()));
            assertEquals(Set.copyOf(part.names()), answered.keySet());
            assertTrue(answered.values().stream().allMatch(Optional::isPresent), "free names are claimed");
        }
        assertEquals(Optional.of(T1), leases.lastSlot(names.getLast()));
    }
}
