package dev.leasecron.app.scheduler;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class JobLoopTest {
    private final LeaseScope claiming = LeaseScope.root();

    @AfterEach
    void stopClaiming() {
        claiming.cancel("test over");
    }

    private JobLoop loop(TestDatabase db, ScheduledJob job) {
        DataSource pool = db.pool(4);
        Leases leases = db.leases(TestTimings.FAST, pool);
        DueClock clock = new DueClock(leases);
        SharedStatements shared = SharedStatements.batched(leases, clock, claiming, () -> 1);
        GuardedTransactions transactions = new GuardedTransactions(leases, pool, Map.of());
        InFlight inFlight = new InFlight();
        LeaseScope rounds = LeaseScope.root();
        return new JobLoop(job, leases, shared, clock,
                new RoundRunner(leases, shared, transactions, rounds, clock, RoundListener.NONE, inFlight),
                new LocalRounds(rounds, transactions, leases.instance(), RoundListener.NONE, inFlight),
                claiming.child(), RoundListener.NONE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aClusterWideLoopHoldsNoThreadWhileItsClaimWaitsAndGoesOnOnceAnswered(TestDatabase db) {
        RecordingJob recording = new RecordingJob();
        String name = TestDatabase.uniqueName("no-thread");
        ScheduledJob job = new ScheduledJob(name, "cron:" + name, new EveryPeriod(Duration.ofSeconds(1)),
                recording.type(), recording, Map.of(), Duration.ofMinutes(1), true, true);

        // The thread that starts the loop comes back as soon as the first claim is handed in.
        assertTimeoutPreemptively(Duration.ofSeconds(10), loop(db, job)::run);

        await().atMost(Duration.ofSeconds(20)).until(() -> recording.rounds().size() >= 3);
        List<Instant> instants = recording.rounds().stream().map(RecordingJob.Round::instant).limit(3).toList();
        assertEquals(List.of(instants.get(0), instants.get(0).plusSeconds(1), instants.get(0).plusSeconds(2)), instants,
                "each instant once, one after the other");
    }
}
