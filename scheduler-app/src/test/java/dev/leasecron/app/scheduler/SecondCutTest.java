package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.LogCapture.kv;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An instant runs twice at most: cut short, it runs once more elsewhere; its rerun cut short too, no
 * replica runs it again, and the claim of the job's next instant gives it up, saying so.
 */
class SecondCutTest {
    /** Time enough for two replicas to start and be shut down between the two instants. */
    private static final Duration PERIOD = Duration.ofSeconds(6);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aRerunCutShortGivesItsInstantUp(TestDatabase db) throws Exception {
        String name = uniqueName("cut-twice");
        RecordingJob job = new RecordingJob();
        Replica first = Replica.over(db, TestTimings.FAST, db.pool(4));
        Instant cut = first.leases.readDatabaseClock().plusMillis(1000);
        Instant next = cut.plus(PERIOD);
        job.behave(context -> {
            if (context.instant().equals(cut)) {
                Thread.sleep(Duration.ofMinutes(1)); // until a shutdown cuts it short
            }
        });
        AnchoredInstants schedule = AnchoredInstants.every(PERIOD, cut);
        ScheduledJob scheduled = new ScheduledJob(name, "cron:" + name, schedule, job.type(), job, Map.of(),
                Duration.ofMinutes(1), false, true);

        try (LogCapture log = LogCapture.start()) {
            try (first) {
                first.start(scheduled);
                await().atMost(Duration.ofSeconds(10)).until(() -> job.rounds().size() == 1);
                assertTrue(first.shutdown(Duration.ZERO), "cut short, and wound down");
                assertEquals(List.of("ended " + name + " cut_short"), first.events("ended " + name));
            }
            try (Replica second = Replica.over(db, TestTimings.FAST, db.pool(4))) {
                second.start(scheduled);
                await().atMost(Duration.ofSeconds(5)).until(() -> job.rounds().size() == 2);
                assertTrue(job.rounds().get(1).rerun(), "the second run is the rerun: " + job.rounds());
                assertTrue(second.shutdown(Duration.ZERO), "cut short again, and wound down");
                assertEquals(List.of("ended " + name + " cut_short rerun"), second.events("ended " + name));
            }
            assertTrue(first.leases.readDatabaseClock().isBefore(next.minusSeconds(2)),
                    "both cuts came well before the next instant (a loaded machine?)");

            try (Replica third = Replica.over(db, TestTimings.FAST, db.pool(4))) {
                third.start(scheduled);
                await().atMost(PERIOD.plusSeconds(5)).until(() -> !job.rounds(r -> r.instant().equals(next)).isEmpty());
                assertEquals(2, job.rounds(r -> r.instant().equals(cut)).size(),
                        "the instant ran twice, never a third time: " + job.rounds());
                assertTrue(third.events.contains("superseded " + name), third.events.toString());
                List<ILoggingEvent> givenUp = log.of("instant.superseded", name);
                assertEquals(1, givenUp.size(), log.dump(name));
                assertEquals(cut.toString(), kv(givenUp.getFirst(), "instant"));
                assertEquals("true", kv(givenUp.getFirst(), "rerun"), "it had been rerun already");
                assertEquals(next.toString(), kv(givenUp.getFirst(), "superseded_by"));
                assertTrue(third.events("started " + name).stream().noneMatch(e -> e.endsWith(" rerun")),
                        "no replica reran it a second time: " + third.events);
            }
        }
    }
}
