package dev.leasecron.app.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.ManualRun;
import dev.leasecron.lease.RoundEnd;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.RunRequestState;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * {@code trigger} records a request on the database, refuses what cannot run with a message and no
 * stack trace, and with {@code --wait} follows the request to its end and exits with its outcome.
 * A stand-in replica plays the scheduler's part through the lease module: the scheduler's own is
 * tested in {@code RunNowTest}.
 */
class TriggerCommandTest {
    private static final String USER = "cli:" + System.getProperty("user.name");

    private static CommandRun run(String... args) {
        return CommandRun.of(Clock.systemUTC(), args);
    }

    private static Path jobsFile(Path directory, TestDatabase db, String job) throws Exception {
        StringBuilder yaml = new StringBuilder("database:\n  url: \"").append(db.url()).append("\"\n");
        if (db.user() != null) {
            yaml.append("  username: \"").append(db.user()).append("\"\n");
        }
        if (db.password() != null) {
            yaml.append("  password: \"").append(db.password()).append("\"\n");
        }
        yaml.append("jobs:\n  - name: ").append(job).append("\n    schedule: \"@hourly\"\n    type: shell\n")
                .append("    params: {command: \"true\"}\n")
                .append("  - name: everywhere\n    schedule: \"@hourly\"\n    type: shell\n    scope: replica\n")
                .append("    params: {command: \"true\"}\n");
        return Files.writeString(directory.resolve("jobs.yaml"), yaml.toString());
    }

    /** Takes the request up as a replica would, holds it a moment, and ends it {@code outcome}. */
    private static CompletableFuture<ManualRun> replica(Leases leases, String lease, RoundEnd end) {
        return CompletableFuture.supplyAsync(() -> {
            RunRequest found = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> leases.manualRounds().claimable(List.of(lease)), l -> !l.isEmpty()).getFirst();
            pause(400); // a replica looks every renew interval: the command reads its request back pending first
            ManualRun run = leases.manualRounds().claim(found).orElseThrow();
            pause(700); // long enough for --wait to see it running
            run.end(end, Optional.empty(), Optional.empty());
            return run;
        });
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void waitFollowsTheRequestToItsEndAndExitsWithItsOutcome(TestDatabase db, @TempDir Path directory) throws Exception {
        String job = "now" + UUID.randomUUID().toString().substring(0, 8);
        Path file = jobsFile(directory, db, job);
        Leases replica = Leases.named(db.pool(4), TestTimings.FAST, "stand-in-" + job, LeaseListener.NONE);
        replica.initialize();
        String id = "req-" + UUID.randomUUID();
        CompletableFuture<ManualRun> taken = replica(replica, "cron:" + job, new RoundEnd(HistoryOutcome.FAILED,
                "exit status 3"));

        ListAppender<ILoggingEvent> events = capture("leasecron.control");
        CommandRun waited = run("trigger", "--config", file.toString(), job, "--request-id", id, "--wait");
        ManualRun ran = taken.join();

        List<String> lines = waited.out().lines().toList();
        assertEquals(1, waited.status(), waited.out() + waited.err());
        assertEquals(3, lines.size(), waited.out());
        assertTrue(lines.get(0).startsWith("run of " + job + " requested: request " + id + ", pending"), lines.get(0));
        assertEquals("running on stand-in-" + job + " (term " + ran.handle().term() + ")", lines.get(1));
        assertTrue(lines.get(2).matches("ended failed in \\d+(ms|s): exit status 3"), lines.get(2));
        assertEquals(USER, ran.request().requestedBy());

        String triggered = events.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.startsWith("job.triggered ")).findFirst().orElseThrow();
        assertTrue(triggered.startsWith("job.triggered job=" + job + " request_id=" + id + " requested_by=" + USER + " "),
                triggered);

        // The same id again runs nothing more: it reports the request on record, and its outcome.
        CommandRun again = run("trigger", "--config", file.toString(), job, "--request-id", id, "--wait");
        assertEquals(1, again.status(), again.err());
        assertTrue(again.out().lines().findFirst().orElseThrow().contains("ended failed on stand-in-" + job), again.out());
        assertTrue(replica.manualRounds().claimable(List.of("cron:" + job)).isEmpty());

        // An ok run without --wait: the request only.
        CompletableFuture<ManualRun> ok = replica(replica, "cron:" + job, RoundEnd.OK);
        CommandRun requested = run("trigger", "--config", file.toString(), job);
        assertEquals(0, requested.status(), requested.err());
        String newId = ok.join().request().id();
        assertTrue(requested.out().contains("request " + newId + ", pending"), requested.out());
        await().atMost(Duration.ofSeconds(5)).until(() -> replica.controls().runRequest(newId).orElseThrow().state()
                == RunRequestState.ENDED);
        CommandRun okWait = run("trigger", "--config", file.toString(), job, "--request-id", newId, "--wait");
        assertEquals(0, okWait.status(), okWait.err());
        assertTrue(okWait.out().lines().toList().getLast().startsWith("ended ok"), okWait.out());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void mistakesAreToldPlainlyAndRequestNothing(TestDatabase db, @TempDir Path directory) throws Exception {
        String job = "now" + UUID.randomUUID().toString().substring(0, 8);
        Path file = jobsFile(directory, db, job);
        db.leases(TestTimings.FAST); // a replica has started there

        CommandRun unknown = run("trigger", "--config", file.toString(), "nope");
        assertEquals(3, unknown.status());
        assertEquals("no job named 'nope' in the config " + file + "; its jobs: " + job + ", everywhere",
                unknown.err().strip());
        assertEquals("", unknown.out());

        CommandRun everywhere = run("trigger", "--config", file.toString(), "everywhere");
        assertEquals(3, everywhere.status());
        assertTrue(everywhere.err().startsWith("cannot trigger: job 'everywhere' has scope: replica"), everywhere.err());

        CommandRun badWait = run("trigger", "--config", file.toString(), job, "--wait", "--wait-timeout", "soon");
        assertEquals(2, badWait.status());
        assertTrue(badWait.err().contains("--wait-timeout"), badWait.err());

        CommandRun gaveUp = run("trigger", "--config", file.toString(), job, "--wait", "--wait-timeout", "600ms");
        assertEquals(4, gaveUp.status(), gaveUp.err());
        assertTrue(gaveUp.err().startsWith("gave up waiting after 600ms: request "), gaveUp.err());
        for (CommandRun r : List.of(unknown, everywhere, badWait, gaveUp)) {
            assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), "no stack trace: " + r.err());
        }
    }

    private static ListAppender<ILoggingEvent> capture(String logger) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.setContext(context);
        appender.start();
        Logger l = context.getLogger(logger);
        l.addAppender(appender);
        return appender;
    }
}
