package dev.leasecron.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.app.plugins.JobRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.net.ServerSocket;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class MainTest {
    private static final String EXAMPLE = "../examples/jobs.yaml";
    private static final int USAGE_WIDTH = 80;
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-12-02T16:00:02Z"), ZoneOffset.UTC);

    /** One run of the command line: exit status and what went to stdout and stderr. */
    /** The built-in job types, as a daemon without a plugins folder has them. */
    private static CommandRun run(String... args) {
        return CommandRun.of(NOW, args);
    }

    private static void assertNoStackTrace(CommandRun run) {
        assertFalse(run.err().contains("\tat ") || run.err().contains("Exception"), run.err());
        assertFalse(run.out().contains("\tat ") || run.out().contains("Exception"), run.out());
    }

    @Nested
    class Validate {
        @Test
        void acceptsTheExampleAndSummarisesEachJob() {
            CommandRun run = run("validate", "--config", EXAMPLE);

            assertEquals(0, run.status(), run.err());
            assertEquals("", run.err());
            assertEquals("""
                    ../examples/jobs.yaml: valid, 5 jobs (embedded database jdbc:sqlite:leasecron.db)
                    history: on, rows kept 14d, at most 1000 per job
                    http: every interface, port 8080; admin API off (no http.adminToken)
                    NAME               SCHEDULE          ZONE              TYPE   NEXT
                    heartbeat          */5 * * * * *     UTC               shell  2026-12-02 16:00:05 UTC
                    disk-report        * * * * *         UTC               shell  2026-12-02 16:01:00 UTC
                    morning-digest     30 7 * * 1-5      Europe/Berlin     http   2026-12-03 07:30:00 CET
                    scratch-cleanup    @daily            America/New_York  shell  2026-12-03 00:00:00 EST
                    quarterly-archive  0 3 1 1,4,7,10 *  UTC               shell  disabled (would be 2027-01-01 03:00:00 UTC)
                    """, run.out());
        }

        @Test
        void saysTheAdminApiIsOnWithoutShowingItsToken(@TempDir Path directory) throws IOException {
            Path file = Files.writeString(directory.resolve("jobs.yaml"), """
                    http:
                      address: 127.0.0.1
                      port: 9091
                      adminToken: validate-must-not-print-this-token
                    jobs: []
                    """);

            CommandRun run = run("validate", "--config", file.toString());

            assertEquals(0, run.status(), run.err());
            assertTrue(run.out().contains("http: 127.0.0.1, port 9091; admin API on (http.adminToken set; its requests"
                    + " act as admin)"), run.out());
            assertFalse(run.out().contains("validate-must-not-print") || run.err().contains("validate-must-not-print"),
                    run.out());
        }

        @Test
        void printsEveryErrorOnStderrAndExitsOne(@TempDir Path directory) throws IOException {
            Path file = Files.writeString(directory.resolve("jobs.yaml"), """
                    jobs:
                      - name: a
                        schedule: "* * *"
                        type: shell
                        timeout: 0s
                      - name: a
                        schedule: "@daily"
                    """);

            CommandRun run = run("validate", "--config", file.toString());

            assertEquals(1, run.status());
            assertEquals("", run.out());
            assertEquals(List.of(
                    file + ":3:15: jobs[0].schedule: invalid cron \"* * *\": has 3 fields; expected 5 (minute hour"
                            + " day-of-month month day-of-week), 6 (seconds first) or a macro such as @daily",
                    file + ":4:11: jobs[0].params.command: required",
                    file + ":5:14: jobs[0].timeout: must be positive, was \"0s\"",
                    file + ":6:5: jobs[1]: missing required key \"type\"",
                    file + ":6:11: jobs[1].name: duplicate job name \"a\" (first used at line 2)"),
                    run.err().lines().toList());
            assertNoStackTrace(run);
        }

        @Test
        void aMissingFileIsAnErrorNotACrash() {
            CommandRun run = run("validate", "--config", "no/such/jobs.yaml");

            assertEquals(1, run.status());
            assertEquals("no/such/jobs.yaml: no such file" + System.lineSeparator(), run.err());
            assertNoStackTrace(run);
        }

        @Test
        void reportsUnknownTypesAndThePluginsParamsProblems(@TempDir Path directory) throws IOException {
            Path file = Files.writeString(directory.resolve("jobs.yaml"), """
                    jobs:
                      - name: ping
                        schedule: "@hourly"
                        type: htp
                      - name: backup
                        schedule: "@daily"
                        type: shell
                        params:
                          cmd: pg_dump
                    """);
            CommandRun run = run("validate", "--config", file.toString());

            assertEquals(1, run.status());
            assertEquals(List.of(
                    file + ":4:11: jobs[0].type: unknown job type \"htp\"; known types: http, shell",
                    file + ":9:7: jobs[1].params.command: required",
                    file + ":9:7: jobs[1].params.cmd: unknown key; known keys: command, env, workingDir"),
                    run.err().lines().toList());
        }
    }

    @Test
    void validateNeverPrintsAHeaderValueWhateverItsType(@TempDir Path directory) throws IOException {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), """
                jobs:
                  - name: ping
                    schedule: "@hourly"
                    type: http
                    params:
                      url: http://example.com/
                      headers:
                        X-Api-Key: 12345
                        X-Token: "abc\\u0001def"
                """);

        CommandRun run = run("validate", "--config", file.toString());

        assertEquals(1, run.status());
        assertEquals(List.of(
                file + ":7:7: jobs[0].params.headers: params.headers.X-Api-Key: must be a string, not a number (quote it)",
                file + ":7:7: jobs[0].params.headers: params.headers.X-Token: not a valid header value: it holds a line"
                        + " break or another character HTTP does not allow"),
                run.err().lines().toList());
    }

    @Nested
    class Next {
        @Test
        void listsEachJobsNextInstantsInItsZoneAndUtc() {
            CommandRun run = run("next", "--config", EXAMPLE, "--count", "2", "--from", "2026-03-07T23:59:58Z");

            assertEquals(0, run.status(), run.err());
            assertEquals("""
                    JOB                           SCHEDULE          IN ITS ZONE              UTC
                    heartbeat                     */5 * * * * *     2026-03-08 00:00:00 UTC  2026-03-08T00:00:00Z
                    heartbeat                     */5 * * * * *     2026-03-08 00:00:05 UTC  2026-03-08T00:00:05Z
                    disk-report                   * * * * *         2026-03-08 00:00:00 UTC  2026-03-08T00:00:00Z
                    disk-report                   * * * * *         2026-03-08 00:01:00 UTC  2026-03-08T00:01:00Z
                    morning-digest                30 7 * * 1-5      2026-03-09 07:30:00 CET  2026-03-09T06:30:00Z
                    morning-digest                30 7 * * 1-5      2026-03-10 07:30:00 CET  2026-03-10T06:30:00Z
                    scratch-cleanup               @daily            2026-03-08 00:00:00 EST  2026-03-08T05:00:00Z
                    scratch-cleanup               @daily            2026-03-09 00:00:00 EDT  2026-03-09T04:00:00Z
                    quarterly-archive (disabled)  0 3 1 1,4,7,10 *  2026-04-01 03:00:00 UTC  2026-04-01T03:00:00Z
                    quarterly-archive (disabled)  0 3 1 1,4,7,10 *  2026-07-01 03:00:00 UTC  2026-07-01T03:00:00Z
                    """, run.out());
        }

        @Test
        void aScheduleWithNoFutureInstantIsAnError(@TempDir Path directory) throws IOException {
            Path file = Files.writeString(directory.resolve("jobs.yaml"),
                    "jobs:\n  - {name: leap, schedule: '0 0 30 2 *', type: shell, params: {command: 'true'}}\n");

            for (String command : List.of("validate", "next")) {
                CommandRun run = run(command, "--config", file.toString());

                assertEquals(1, run.status());
                assertEquals(List.of(file + ":2:28: jobs[0].schedule: invalid cron \"0 0 30 2 *\": it never fires: no date"
                        + " in the next 8 years matches it (a day the month does not have, such as 31 February?)"),
                        run.err().lines().toList());
            }
        }

        @Test
        void refusesACountOutOfRange() {
            CommandRun run = run("next", "--config", EXAMPLE, "--count", "0");

            assertEquals(2, run.status());
            assertTrue(run.err().startsWith("--count must be between 1 and 1000, was 0"), run.err());
        }

        @Test
        void refusesAnUnreadableInstant() {
            CommandRun run = run("next", "--config", EXAMPLE, "--from", "tomorrow");

            assertEquals(2, run.status());
            assertTrue(run.err().startsWith("Invalid value for option '--from': \"tomorrow\" is not an ISO-8601 instant"
                    + " such as 2026-03-08T00:00:00Z"), run.err());
            assertNoStackTrace(run);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "validate", "next", "run", "status"})
    void everyCommandHasHelpAndVersion(String command) {
        String[] prefix = command.isEmpty() ? new String[0] : new String[] {command};

        CommandRun help = run(concat(prefix, "--help"));
        CommandRun version = run(concat(prefix, "--version"));

        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: leasecron"), help.out());
        assertEquals(0, version.status());
        assertTrue(version.out().startsWith("leasecron "), version.out());
    }

    @Test
    void noSubcommandShowsTheCommandsAsAUsageError() {
        CommandRun run = run();

        assertEquals(2, run.status());
        assertTrue(run.err().contains("validate") && run.err().contains("next"), run.err());
    }

    @Test
    void missingConfigIsAUsageError() {
        CommandRun run = run("validate");

        assertEquals(2, run.status());
        assertTrue(run.err().startsWith("Missing required option: '--config=FILE'"), run.err());
    }

    @Nested
    class UsageMistakes {
        @Test
        void anUnknownLogFormatFlagIsOneLineAndAUsageError() {
            CommandRun run = run("run", "--config", EXAMPLE, "--log-format", "xml");

            assertEquals(2, run.status());
            assertEquals("Invalid value for option '--log-format': unknown log format \"xml\"; use json or console",
                    run.err().lines().findFirst().orElseThrow());
            assertNoStackTrace(run);
        }

        @ParameterizedTest
        @ValueSource(strings = {"validate", "next", "run", "status"})
        void anUnknownLogFormatInTheEnvironmentIsOneLineAndAUsageErrorForAnyCommand(String command) {
            StringWriter err = new StringWriter();
            CommandLine commandLine = Main.commandLine(new CliContext(Map.of(), NOW, folder -> JobRegistry.of()));
            commandLine.setErr(new PrintWriter(err, true));

            int status = Main.execute(commandLine, new String[] {command, "--config", EXAMPLE},
                    Map.of("LEASECRON_LOG_FORMAT", "xml"));

            assertEquals(2, status);
            assertEquals(List.of("environment variable LEASECRON_LOG_FORMAT: unknown log format \"xml\"; use json or console"),
                    err.toString().lines().toList());
        }

        @Test
        void anHttpPortInUseIsOneLineAndExitOne(@TempDir Path directory) throws IOException {
            try (ServerSocket taken = new ServerSocket(0)) {
                Path file = Files.writeString(directory.resolve("jobs.yaml"), "database:\n  url: jdbc:sqlite:"
                        + directory.resolve("leases.db") + "\nhttp:\n  port: " + taken.getLocalPort() + "\njobs: []\n");

                CommandRun run = run("run", "--config", file.toString());

                assertEquals(1, run.status());
                assertEquals(List.of("cannot serve http.port " + taken.getLocalPort() + ": Address already in use"),
                        run.err().lines().toList());
                assertNoStackTrace(run);
            }
        }

        @ParameterizedTest
        @ValueSource(strings = {"validate", "next", "run", "status"})
        void aJobsFileOverTheSizeLimitIsRefusedByEveryCommand(String command, @TempDir Path directory) throws IOException {
            Path file = directory.resolve("jobs.yaml");
            try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
                sparse.setLength(50L * 1024 * 1024);
            }

            CommandRun run = run(command, "--config", file.toString());

            assertEquals(1, run.status());
            assertEquals(List.of(file + ": the file is larger than 4 MiB (4194304 bytes), the most a jobs file may hold"),
                    run.err().lines().toList());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"validate", "next", "run", "status"})
    void helpWrapsEachParagraphAtWordsNotMidSentence(String command) {
        CommandRun help = run(command, "--help");
        List<String> description = help.out().lines()
                .dropWhile(line -> !line.startsWith("Usage:"))
                .dropWhile(line -> line.startsWith("Usage:") || line.startsWith(" "))
                .takeWhile(line -> !line.isEmpty() && !line.startsWith(" "))
                .toList();

        assertFalse(description.isEmpty(), help.out());
        for (int i = 0; i + 1 < description.size(); i++) {
            String line = description.get(i);
            String nextWord = description.get(i + 1).split(" ")[0];
            boolean nextWordWouldFit = line.length() + 1 + nextWord.length() <= USAGE_WIDTH;
            assertTrue(line.length() <= USAGE_WIDTH && (!nextWordWouldFit || line.endsWith(".")),
                    "line " + (i + 1) + " breaks early or runs long: \"" + line + "\"\n" + help.out());
        }
    }

    private static String[] concat(String[] prefix, String last) {
        String[] all = java.util.Arrays.copyOf(prefix, prefix.length + 1);
        all[prefix.length] = last;
        return all;
    }
}
