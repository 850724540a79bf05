package dev.leasecron.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * {@code suspend} and {@code resume} act straight on the database, log what they changed with the
 * requester, and show in {@code status}; a user's mistake is one line naming the job or the file.
 */
class SuspendCommandTest {
    private static final String USER = "cli:" + System.getProperty("user.name");

    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final Logger control = (Logger) LoggerFactory.getLogger("leasecron.control");

    @BeforeEach
    void capture() {
        events.start();
        control.addAppender(events);
    }

    @AfterEach
    void release() {
        control.detachAppender(events);
    }

    private static CommandRun run(String... args) {
        return CommandRun.of(Clock.systemUTC(), args);
    }

    private static String jobName(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Path jobsFile(Path directory, TestDatabase db, String... jobs) throws Exception {
        StringBuilder yaml = new StringBuilder("database:\n  url: \"").append(db.url()).append("\"\n");
        if (db.user() != null) {
            yaml.append("  username: \"").append(db.user()).append("\"\n");
        }
        if (db.password() != null) {
            yaml.append("  password: \"").append(db.password()).append("\"\n");
        }
        yaml.append("jobs:\n");
        for (String job : jobs) {
            yaml.append("  - name: ").append(job).append("\n    schedule: \"@hourly\"\n    type: shell\n")
                    .append("    params: {command: \"true\"}\n");
        }
        return Files.writeString(directory.resolve("jobs.yaml"), yaml.toString());
    }

    private static String statusLine(Path file, String job) {
        CommandRun status = run("status", "--config", file.toString());
        assertEquals(0, status.status(), status.err());
        return status.out().lines().filter(l -> l.startsWith(job + " ")).findFirst().orElseThrow(() -> new AssertionError(status.out()));
    }

    /** The entries of {@code event}, as their messages render the fields (in JSON each is a field of its own). */
    private List<String> logged(String event) {
        return events.list.stream().map(ILoggingEvent::getFormattedMessage).filter(m -> m.startsWith(event + " ")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void suspendAndResumeChangeTheDatabaseShowInStatusAndAreLoggedWithTheRequester(TestDatabase db, @TempDir Path directory)
            throws Exception {
        String nightly = jobName("nightly");
        String other = jobName("other");
        Leases replica = db.leases(TestTimings.FAST); // a replica has started here: the tables are there
        Path file = jobsFile(directory, db, nightly, other);

        CommandRun suspend = run("suspend", "--config", file.toString(), nightly, "--reason", "db migration");
        assertEquals(0, suspend.status(), suspend.err());
        assertTrue(suspend.out().startsWith("suspended " + nightly + " (" + USER + ": db migration): every replica"),
                suspend.out());
        assertEquals("", suspend.err());
        assertEquals(USER, replica.controls().suspensions(List.of("cron:" + nightly)).get("cron:" + nightly).by(),
                "every replica reads it from the database");
        assertTrue(statusLine(file, nightly).contains(" yes (" + USER + ": db migration) "), statusLine(file, nightly));
        assertTrue(statusLine(file, other).matches(other + " .* +0 +- +- .*"), statusLine(file, other));
        assertEquals(List.of("job.suspended job=" + nightly + " requested_by=" + USER + " reason=db migration"),
                logged("job.suspended"));

        CommandRun again = run("suspend", "--config", file.toString(), nightly, "--reason", "another reason");
        assertEquals(0, again.status(), again.err());
        assertTrue(again.out().startsWith(nightly + " was already suspended (" + USER + ": db migration, since "),
                again.out());
        assertEquals(1, logged("job.suspended").size(), "nothing changed, nothing logged");

        CommandRun resume = run("resume", "--config", file.toString(), nightly);
        assertEquals(0, resume.status(), resume.err());
        assertTrue(resume.out().startsWith("resumed " + nightly + ": its next instant runs ("), resume.out());
        assertTrue(statusLine(file, nightly).matches(nightly + " .* +0 +- +- .*"), statusLine(file, nightly));
        assertEquals(List.of("job.resumed job=" + nightly + " requested_by=" + USER), logged("job.resumed"));

        CommandRun notSuspended = run("resume", "--config", file.toString(), nightly);
        assertEquals(0, notSuspended.status(), notSuspended.err());
        assertEquals(nightly + " was not suspended", notSuspended.out().strip());
        assertEquals(1, logged("job.resumed").size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void anUnknownJobIsNamedWithTheFileAndNothingChanges(TestDatabase db, @TempDir Path directory) throws Exception {
        String nightly = jobName("nightly");
        db.leases(TestTimings.FAST);
        Path file = jobsFile(directory, db, nightly);

        for (String command : List.of("suspend", "resume")) {
            CommandRun run = run(command, "--config", file.toString(), "nightlyy");
            assertEquals(1, run.status(), command);
            assertEquals("no job named 'nightlyy' in " + file, run.err().strip(), "one line, no stack trace");
            assertEquals("", run.out());
        }
        assertTrue(logged("job.suspended").isEmpty());
    }

    @Test
    void aFileWithErrorsChangesNothing(@TempDir Path directory) throws Exception {
        Path database = directory.resolve("leases.db");
        Path file = Files.writeString(directory.resolve("jobs.yaml"), """
                database:
                  url: jdbc:sqlite:%s
                jobs:
                  - name: nightly
                    schedule: "61 * * * *"
                    type: shell
                    params: {command: "true"}
                """.formatted(database));

        CommandRun run = run("suspend", "--config", file.toString(), "nightly");

        assertEquals(1, run.status());
        List<String> lines = run.err().lines().toList();
        assertTrue(lines.getFirst().startsWith(file + ":5:"), run.err());
        assertEquals("nothing changed: " + file + " has errors", lines.getLast());
        assertFalse(Files.exists(database));
    }

    @Test
    void aMissingSqliteFileIsReportedAndNotCreated(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), """
                database:
                  url: jdbc:sqlite:leases.db
                jobs:
                  - name: nightly
                    schedule: "@daily"
                    type: shell
                    params: {command: "true"}
                """);

        CommandRun run = run("suspend", "--config", file.toString(), "nightly");

        Path database = directory.resolve("leases.db").toAbsolutePath();
        assertEquals(1, run.status());
        assertEquals("database jdbc:sqlite:" + database + ": nothing there yet: no file " + database
                + " (leasecron run creates it); nothing changed", run.err().strip());
        assertFalse(Files.exists(database));
    }

    @Test
    void aMissingJobIsAUsageMistake(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), "jobs: []\n");

        CommandRun run = run("suspend", "--config", file.toString());

        assertEquals(2, run.status());
        assertTrue(run.err().contains("Missing required parameter: 'JOB'"), run.err());
    }
}
