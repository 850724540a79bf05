package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.LogCapture.kv;
import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.Outage;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * After the database has not answered for several of a job's instants, the job goes on with the
 * latest instant come, not a stale one run late; every instant in between is on record once
 * (unclaimed, or missed), and none is reported as overrun.
 */
class LongOutageTest {
    private static final Duration PERIOD = Duration.ofSeconds(1);
    private static final Duration OUTAGE = Duration.ofSeconds(5);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void theJobGoesOnWithTheLatestInstantAndEveryInstantOfTheOutageIsOnRecordOnce(TestDatabase db) throws Exception {
        String name = uniqueName("long-outage");
        RecordingJob job = new RecordingJob();
        Outage outage = new Outage(db.pool(4));
        Leases clock = db.leases(TestTimings.FAST); // reads the database clock while the replica cannot
        try (LogCapture log = LogCapture.start();
                Replica replica = Replica.over(db, TestTimings.FAST, outage.dataSource())) {
            replica.start(new ScheduledJob(name, "cron:" + name, new EveryPeriod(PERIOD), job.type(), job,
                    Map.of(), Duration.ofMinutes(1), false, true));
            await().atMost(Duration.ofSeconds(15)).until(() -> !replica.events("ended " + name).isEmpty());

            outage.down();
            Instant down = clock.readDatabaseClock();
            await().atMost(OUTAGE.multipliedBy(2)).until(() -> clock.readDatabaseClock().isAfter(down.plus(OUTAGE)));
            Instant lastBefore = job.rounds().getLast().instant();
            outage.up();
            Instant up = clock.readDatabaseClock();

            await().atMost(Duration.ofSeconds(10)).until(() -> !job.rounds(r -> r.instant().isAfter(down)).isEmpty());
            Instant firstAfter = job.rounds(r -> r.instant().isAfter(down)).getFirst().instant();
            assertFalse(firstAfter.isBefore(up.minus(PERIOD)),
                    "the job went on with the latest instant, not one " + Duration.between(firstAfter, up) + " stale: "
                            + job.rounds());

            long between = Duration.between(lastBefore, firstAfter).dividedBy(PERIOD) - 1;
            List<ILoggingEvent> onRecord = Stream.concat(log.of("instant.unclaimed", name).stream(),
                    log.of("instant.missed", name).stream()).toList();
            long recorded = onRecord.stream().mapToLong(e -> Long.parseLong(kv(e, "count"))).sum();
            assertEquals(between, recorded, "each instant of the outage on record once: " + log.dump(name));
            assertTrue(log.of("instant.skipped", name).isEmpty(), "nothing reported overrun: " + log.dump(name));
        }
    }
}
