package dev.leasecron.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.NotRun;
import dev.leasecron.lease.RoundEnd;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code history} reads the rounds back with its filters and formats; {@code status} shows NEXT, LAST and ACTIVE. */
class HistoryCommandTest {
    private static CommandRun run(String... args) {
        return CommandRun.of(Clock.systemUTC(), args);
    }

    private static String jobName(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Path jobsFile(Path directory, TestDatabase db, String history, String... jobs) throws Exception {
        StringBuilder yaml = new StringBuilder("database:\n  url: \"").append(db.url()).append("\"\n");
        if (db.user() != null) {
            yaml.append("  username: \"").append(db.user()).append("\"\n");
        }
        if (db.password() != null) {
            yaml.append("  password: \"").append(db.password()).append("\"\n");
        }
        yaml.append(history);
        yaml.append("jobs:\n");
        for (String job : jobs) {
            yaml.append("  - name: ").append(job).append("\n    schedule: \"@hourly\"\n    type: shell\n")
                    .append("    params: {command: \"true\"}\n");
        }
        return Files.writeString(directory.resolve("jobs.yaml"), yaml.toString());
    }

    /** Rounds of {@code ok} (ended ok, with a missed span 3 days back) and {@code failed} (a two-line error). */
    private static void seed(TestDatabase db, String ok, String failed) {
        Leases leases = db.leases(TestTimings.FAST);
        Instant now = leases.readDatabaseClock().truncatedTo(ChronoUnit.SECONDS);
        Handle a = leases.slots().claimSlot("cron:" + ok, now).orElseThrow();
        Handle b = leases.slots().claimSlot("cron:" + failed, now).orElseThrow();
        leases.batches().finishAll(Map.of(a, now, b, now),
                Map.of(b, new RoundEnd(HistoryOutcome.FAILED, "exit status 3\nstderr: disk full")));
        Instant old = now.minus(Duration.ofDays(3));
        leases.history().recordNotRun(List.of(new NotRun("cron:" + ok, old, old.plusSeconds(3600), 2,
                HistoryOutcome.MISSED, "no replica claimed them")));
    }

    private static List<String> rowsOf(CommandRun run) {
        return run.out().lines().skip(1).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void historyFiltersAndFormats(TestDatabase db, @TempDir Path directory) throws Exception {
        String ok = jobName("ok");
        String failed = jobName("failed");
        seed(db, ok, failed);
        Path file = jobsFile(directory, db, "", ok, failed);

        CommandRun all = run("history", "--config", file.toString());
        assertEquals(0, all.status(), all.err());
        assertTrue(all.out().startsWith("JOB "), all.out());
        assertTrue(all.out().lines().findFirst().orElseThrow().matches(
                "JOB +INSTANT +OUTCOME +TRIGGER +RERUN +INSTANCE +DELAY +DURATION +ERROR"), all.out());
        assertEquals(3, rowsOf(all).size(), all.out());
        assertTrue(rowsOf(all).stream().anyMatch(l -> l.startsWith(failed + " ") && l.contains(" failed ")
                && l.contains("exit status 3") && !l.contains("disk full")), "the error's first line: " + all.out());
        assertTrue(rowsOf(all).getLast().contains(" missed ") && rowsOf(all).getLast().contains("(2)"), "oldest last: " + all.out());

        CommandRun one = run("history", "--config", file.toString(), "--job", ok);
        assertEquals(2, rowsOf(one).size(), one.out());
        assertTrue(rowsOf(one).stream().allMatch(l -> l.startsWith(ok + " ")), one.out());

        CommandRun failures = run("history", "--config", file.toString(), "--outcome", "failed,timeout");
        assertEquals(1, rowsOf(failures).size(), failures.out());
        assertTrue(rowsOf(failures).getFirst().startsWith(failed + " "), failures.out());

        CommandRun recent = run("history", "--config", file.toString(), "--since", "24h");
        assertEquals(2, rowsOf(recent).size(), recent.out());
        assertEquals(3, rowsOf(run("history", "--config", file.toString(), "--since", "7d")).size());
        assertEquals(1, rowsOf(run("history", "--config", file.toString(), "--limit", "1")).size());

        CommandRun json = run("history", "--config", file.toString(), "--job", failed, "--format", "json");
        assertEquals(0, json.status(), json.err());
        JsonNode rows = new ObjectMapper().readTree(json.out());
        assertTrue(rows.isArray());
        assertEquals(1, rows.size());
        assertEquals(failed, rows.get(0).get("job").asText());
        assertEquals("failed", rows.get(0).get("outcome").asText());
        assertEquals("scheduled", rows.get(0).get("trigger").asText());
        assertEquals("exit status 3\nstderr: disk full", rows.get(0).get("detail").asText(), "whole in JSON");
        assertTrue(rows.get(0).has("duration_ms") && rows.get(0).has("fire_delay_ms"), "the API's keys: " + rows.get(0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void wrongOptionsAndAHistoryTurnedOffSayWhy(TestDatabase db, @TempDir Path directory) throws Exception {
        String ok = jobName("ok");
        Path file = jobsFile(directory, db, "", ok);
        CommandRun bogus = run("history", "--config", file.toString(), "--outcome", "ok,bogus");
        assertEquals(2, bogus.status());
        assertTrue(bogus.err().contains("unknown outcome \"bogus\"") && bogus.err().contains("cut_short"), bogus.err());
        CommandRun since = run("history", "--config", file.toString(), "--since", "yesterday");
        assertEquals(2, since.status());
        assertTrue(since.err().contains("--since"), since.err());

        Path off = jobsFile(directory, db, "history:\n  enabled: false\n", ok);
        CommandRun disabled = run("history", "--config", off.toString());
        assertEquals(1, disabled.status());
        assertEquals(1, disabled.err().lines().count(), disabled.err());
        assertTrue(disabled.err().contains("history is off"), disabled.err());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void statusShowsTheNextInstantTheLastOutcomeAndTheRoundsRunning(TestDatabase db, @TempDir Path directory)
            throws Exception {
        String ok = jobName("ok");
        String failed = jobName("failed");
        String busy = jobName("busy");
        String fresh = jobName("fresh");
        String manual = jobName("manual");
        seed(db, ok, failed);
        Leases leases = db.leases(TestTimings.FAST);
        leases.slots().claimSlot("cron:" + busy, leases.readDatabaseClock().truncatedTo(ChronoUnit.SECONDS)).orElseThrow();
        RunRequest asked = leases.controls().requestRun("cron:" + manual, UUID.randomUUID().toString(), "alice");
        leases.manualRounds().claim(asked).orElseThrow();
        Path file = jobsFile(directory, db, "", ok, failed, busy, fresh, manual);

        CommandRun status = run("status", "--config", file.toString());
        assertEquals(0, status.status(), status.err());
        List<String> lines = status.out().lines().toList();
        assertTrue(lines.get(1).matches("JOB +NEXT +LAST +ACTIVE +SUSPEND +HOLDER .*"), status.out());
        String okLine = lines.stream().filter(l -> l.startsWith(ok + " ")).findFirst().orElseThrow();
        assertTrue(okLine.matches(".* ok \\d+(ms|s) ago +0 .*"), okLine);
        assertTrue(okLine.contains(":00:00Z (in "), "the next instant of @hourly: " + okLine);
        String failedLine = lines.stream().filter(l -> l.startsWith(failed + " ")).findFirst().orElseThrow();
        assertTrue(failedLine.matches(".* failed \\d+(ms|s) ago +0 .*"), failedLine);
        String busyLine = lines.stream().filter(l -> l.startsWith(busy + " ")).findFirst().orElseThrow();
        assertTrue(busyLine.matches(".*\\) +- +1 .*"), "running, nothing ended yet: " + busyLine);
        String freshLine = lines.stream().filter(l -> l.startsWith(fresh + " ")).findFirst().orElseThrow();
        assertTrue(freshLine.matches(".*\\) +- +0 .*never ran.*"), freshLine);
        // A manual round is no instant: only its run request tells that it runs.
        String manualLine = lines.stream().filter(l -> l.startsWith(manual + " ")).findFirst().orElseThrow();
        assertTrue(manualLine.matches(".*\\) +- +1 \\(run now, asked by alice\\) .*"), manualLine);
    }
}
