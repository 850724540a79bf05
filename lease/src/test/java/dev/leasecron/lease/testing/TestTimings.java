package dev.leasecron.lease.testing;

import dev.leasecron.lease.LeaseTimings;
import java.time.Duration;

/** The protocol's timings scaled down so tests play it out in milliseconds. */
public final class TestTimings {
    /** Leases that outlive a test's statements comfortably: 3 s lease, 200 ms renewals, 2 s deadline. */
    public static final LeaseTimings FAST = new LeaseTimings(
            Duration.ofMillis(3000), Duration.ofMillis(200), Duration.ofMillis(2000), Duration.ofMillis(500));

    /** Leases that expire almost at once, for tests of what happens after expiry. */
    public static final LeaseTimings EXPIRING = new LeaseTimings(
            Duration.ofMillis(400), Duration.ofMillis(100), Duration.ofMillis(300), Duration.ofMillis(100));

    private TestTimings() {}
}
