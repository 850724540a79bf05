package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.LogCapture.kv;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catch-up at start is a round like any other: the instants that come while it runs are skipped,
 * logged as such, and the schedule goes on after them, without claiming any of them.
 */
class CatchUpTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void instantsThatPassDuringACatchUpAreSkippedAndLogged(TestDatabase db) throws Exception {
        String name = uniqueName("catch-up-overrun");
        Leases seed = db.leases(TestTimings.FAST);
        Instant now = seed.readDatabaseClock();
        Instant earlier = new EveryPeriod(SECOND).latestAtOrBefore(now.minusSeconds(10)).orElseThrow();
        seed.slots().claimSlot("cron:" + name, earlier).orElseThrow().finish(earlier);

        RecordingJob job = new RecordingJob();
        job.behave(context -> {
            if (job.rounds().size() == 1) {
                Thread.sleep(2500); // the catch-up round overruns two instants at least
            }
        });
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, db.pool(4))) {
            replica.start(new ScheduledJob(name, "cron:" + name, new EveryPeriod(SECOND), job.type(), job,
                    Map.of(), Duration.ofMinutes(1), true, true));
            await().atMost(Duration.ofSeconds(15)).until(() -> job.rounds().size() >= 2);

            List<RecordingJob.Round> rounds = job.rounds();
            Instant caughtUp = rounds.getFirst().instant();
            List<ILoggingEvent> caughtUpLogged = log.of("instant.caught_up", name);
            assertEquals(1, caughtUpLogged.size(), log.dump(name));
            assertEquals(caughtUp.toString(), kv(caughtUpLogged.getFirst(), "instant"), "the first round is the catch-up");
            assertTrue(caughtUp.isBefore(now.plusSeconds(2)), "an instant missed before the start: " + caughtUp);

            await().atMost(Duration.ofSeconds(2)).until(() -> !log.of("instant.skipped", name).isEmpty());
            List<ILoggingEvent> skipped = log.of("instant.skipped", name);
            assertEquals(1, skipped.size(), "the overrun is logged once: " + log.dump(name));
            Instant first = Instant.parse(kv(skipped.getFirst(), "first"));
            Instant last = Instant.parse(kv(skipped.getFirst(), "last"));
            long count = Long.parseLong(kv(skipped.getFirst(), "count"));
            assertEquals(caughtUp.plus(SECOND), first, "skipped from the instant after the catch-up's own");
            assertTrue(count >= 2, "2.5 s overrun two instants at least: " + count);
            assertEquals(first.plus(SECOND.multipliedBy(count - 1)), last);
            assertTrue(replica.events.contains("skipped " + name + " " + count), replica.events.toString());
            assertTrue(log.of("round.overrun", name).stream().anyMatch(e -> kv(e, "instant").equals(caughtUp.toString())),
                    "the overrun is announced as the next instant comes: " + log.dump(name));

            Instant next = rounds.get(1).instant();
            assertEquals(last.plus(SECOND), next, "the schedule goes on right after the instants skipped: " + rounds);
            assertTrue(job.rounds(r -> !r.instant().isBefore(first) && !r.instant().isAfter(last)).isEmpty(),
                    "no skipped instant runs: " + job.rounds());
            assertTrue(replica.events("claimed " + name + " refused").isEmpty(),
                    "alone, the replica never claims an instant the catch-up took along: " + replica.events);
            assertTrue(log.of("instant.missed", name).stream()
                    .allMatch(e -> Instant.parse(kv(e, "last")).isBefore(caughtUp)),
                    "only the instants before the one caught up are missed: " + log.dump(name));
        }
    }
}
