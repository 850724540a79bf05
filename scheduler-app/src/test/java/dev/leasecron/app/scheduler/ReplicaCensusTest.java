package dev.leasecron.app.scheduler;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.Outage;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The census alone: the replicas that claimed one of the jobs lately, as the lease rows tell it. */
class ReplicaCensusTest {
    private static final SchedulerSettings RECENT_ONE_MINUTE = new SchedulerSettings(Duration.ofMillis(250),
            Duration.ofMillis(5), Duration.ofHours(24), Duration.ofSeconds(10), Duration.ofMinutes(1), 2);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void countsTheReplicasThatClaimedOneOfTheJobsLatelyItselfIncluded(TestDatabase db) {
        Leases a = db.leases(TestTimings.FAST);
        Leases b = db.leases(TestTimings.FAST);
        Leases gone = db.leases(TestTimings.FAST);
        String first = uniqueName("census");
        String second = uniqueName("census");
        String old = uniqueName("census");
        Instant now = a.readDatabaseClock().truncatedTo(ChronoUnit.SECONDS);
        a.slots().claimSlot(first, now).orElseThrow();
        b.slots().claimSlot(second, now).orElseThrow();
        gone.slots().claimSlot(old, now.minus(Duration.ofMinutes(2))).orElseThrow();

        ReplicaCensus census = new ReplicaCensus(a, () -> List.of(first, second, old), LeaseScope.root(), RECENT_ONE_MINUTE);
        assertEquals(1, census.replicas(), "before the first count: this replica alone");
        census.count();
        assertEquals(2, census.replicas(), "this one and the other that claimed lately; not the one whose claim is old");

        Leases fresh = db.leases(TestTimings.FAST);
        ReplicaCensus own = new ReplicaCensus(fresh, () -> List.of(first, second), LeaseScope.root(), RECENT_ONE_MINUTE);
        own.count();
        assertEquals(3, own.replicas(), "a replica that has claimed nothing yet counts itself beside the others");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aCountTheDatabaseDoesNotAnswerLeavesTheLastOneStanding(TestDatabase db) {
        Leases other = db.leases(TestTimings.FAST);
        String name = uniqueName("census");
        other.slots().claimSlot(name, other.readDatabaseClock().truncatedTo(ChronoUnit.SECONDS)).orElseThrow();
        Outage outage = new Outage(db.pool(2));
        Leases self = db.leases(TestTimings.FAST, outage.dataSource());
        ReplicaCensus census = new ReplicaCensus(self, () -> List.of(name), LeaseScope.root(), RECENT_ONE_MINUTE);
        census.count();
        assertEquals(2, census.replicas());

        outage.down();
        census.count();
        assertEquals(2, census.replicas(), "the last count stands while the database does not answer");
    }
}
