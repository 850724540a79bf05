package dev.leasecron.app.scheduler;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The claim sender is a group commit: what is handed over while a statement is out goes together, one
 * statement per instant, earliest first, instead of one statement per claim queueing behind each other.
 */
class ClaimSenderTest {
    private record Part(Instant slot, int names) {}

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void claimsHandedOverWhileAStatementIsOutGoTogetherOneStatementPerInstant(TestDatabase db) {
        SlowDatabase slow = new SlowDatabase(db.pool(4));
        Leases leases = db.leases(TestTimings.FAST, slow.dataSource());
        String prefix = TestDatabase.uniqueName("sender");
        LeaseScope claiming = LeaseScope.root();
        List<Part> parts = new CopyOnWriteArrayList<>();
        ClaimSender sender = new ClaimSender(leases, new RoundEvents(RoundListener.NONE),
                (slot, part, byName) -> parts.add(new Part(slot, part.answered().size() + part.failed().size())), claiming, new InFlight());
        AtomicLong order = new AtomicLong();
        Instant slot = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        try {
            sender.start();
            slow.delay(Duration.ofSeconds(1)); // ample time to hand the rest over while the first is out
            sender.send(slot, List.of(state(prefix + "-first", order)));
            await().atMost(Duration.ofSeconds(10)).until(() -> slow.slowed() >= 1);
            // Handed over one by one while the first statement is out: the later instant first.
            sender.send(slot.plusSeconds(1), List.of(state(prefix + "-later-0", order)));
            sender.send(slot.plusSeconds(1), List.of(state(prefix + "-later-1", order)));
            for (int i = 0; i < 8; i++) {
                sender.send(slot, List.of(state(prefix + "-" + i, order)));
            }
            await().atMost(Duration.ofSeconds(40)).until(() -> parts.stream().mapToInt(Part::names).sum() == 11);
            assertEquals(List.of(new Part(slot, 1), new Part(slot, 8), new Part(slot.plusSeconds(1), 2)), parts,
                    "the first alone, then what came meanwhile: one statement per instant, earliest first");
        } finally {
            claiming.cancel("test over");
            slow.delay(Duration.ZERO);
        }
    }

    private static JobState state(String name, AtomicLong order) {
        RecordingJob recording = new RecordingJob();
        return new JobState(new ScheduledJob(name, "cron:" + name, new EveryPeriod(Duration.ofSeconds(1)), recording.type(),
                recording, Map.of(), Duration.ofMinutes(1), false, true), LeaseScope.root(), order.getAndIncrement());
    }
}
