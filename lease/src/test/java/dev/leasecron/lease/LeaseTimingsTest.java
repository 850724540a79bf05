package dev.leasecron.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The protocol's timings: the defaults a deployment runs, and the combinations refused. */
class LeaseTimingsTest {

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    private static void assertRefusedNaming(List<String> fields, Runnable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::run);
        for (String field : fields) {
            assertTrue(e.getMessage().contains(field), "\"" + e.getMessage() + "\" names " + field);
        }
    }

    @Test
    void defaultsAreFifteenSecondLeasesRenewedEveryTwoGivenUpAfterTenWithFiveToStepDown() {
        LeaseTimings d = LeaseTimings.DEFAULT;
        assertEquals(Duration.ofSeconds(15), d.leaseDuration());
        assertEquals(Duration.ofSeconds(2), d.renewInterval());
        assertEquals(Duration.ofSeconds(10), d.localDeadline());
        assertEquals(Duration.ofSeconds(5), d.stepDownGrace());
        assertEquals(Duration.ofSeconds(5), d.attemptTimeout(), "an attempt waits at most half the local deadline");
    }

    @Test
    void leasesKeepTheTimingsTheyWereGivenAndRetryAtTheRenewCadence() {
        LeaseTimings t = new LeaseTimings(ms(3000), ms(200), ms(2000), ms(500));
        Leases leases = Leases.create(new org.sqlite.SQLiteDataSource(), t, "test", LeaseListener.NONE);
        assertEquals(t, leases.timings());
        assertEquals(ms(200), leases.retryInterval());
    }

    @Test
    void eachTimingMustBePositive() {
        for (Duration bad : List.of(Duration.ZERO, ms(-1))) {
            assertRefusedNaming(List.of("leaseDuration"), () -> new LeaseTimings(bad, ms(200), ms(2000), ms(500)));
            assertRefusedNaming(List.of("renewInterval"), () -> new LeaseTimings(ms(3000), bad, ms(2000), ms(500)));
            assertRefusedNaming(List.of("localDeadline"), () -> new LeaseTimings(ms(3000), ms(200), bad, ms(500)));
            assertRefusedNaming(List.of("stepDownGrace"), () -> new LeaseTimings(ms(3000), ms(200), ms(2000), bad));
        }
    }

    @Test
    void eachTimingIsRequired() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new LeaseTimings(null, ms(200), ms(2000), ms(500)));
        assertEquals("leaseDuration", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> new LeaseTimings(ms(3000), null, ms(2000), ms(500)));
        assertEquals("renewInterval", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> new LeaseTimings(ms(3000), ms(200), null, ms(500)));
        assertEquals("localDeadline", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> new LeaseTimings(ms(3000), ms(200), ms(2000), null));
        assertEquals("stepDownGrace", e.getMessage());
    }

    @Test
    void holderMustGiveUpBeforeTheDatabaseFreesTheName() {
        assertRefusedNaming(List.of("leaseDuration", "localDeadline"), () -> new LeaseTimings(ms(2000), ms(200), ms(2000), ms(500)));
        assertRefusedNaming(List.of("leaseDuration", "localDeadline"), () -> new LeaseTimings(ms(1999), ms(200), ms(2000), ms(500)));
        new LeaseTimings(ms(2001), ms(200), ms(2000), ms(500));
    }

    @Test
    void oneLateRenewalMustNotCostTheLease() {
        // client-go's bound: the local deadline more than 1.2 renew intervals.
        assertRefusedNaming(List.of("localDeadline", "renewInterval"), () -> new LeaseTimings(ms(3000), ms(1000), ms(1200), ms(500)));
        assertRefusedNaming(List.of("localDeadline", "renewInterval"), () -> new LeaseTimings(ms(3000), ms(2000), ms(1000), ms(500)));
        new LeaseTimings(ms(3000), ms(1000), ms(1201), ms(500));
    }
}
