package dev.leasecron.app.plugins;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.app.testing.RecordingLogger;
import dev.leasecron.app.testing.RoundThread;
import dev.leasecron.app.testing.TestJobContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.MDC;

class ShellJobTest {
    private final ShellJob job = new ShellJob(Duration.ofMillis(300));

    @Test
    void stringCommandRunsInShellAndItsOutputIsLogged() throws Exception {
        TestJobContext context = context(Map.of("command", "echo hello; echo warning >&2"));

        job.run(context);

        assertTrue(context.log().messages().contains("stdout: hello"), context.log().messages()::toString);
        assertTrue(context.log().messages().contains("stderr: warning"), context.log().messages()::toString);
    }

    @Test
    void argvListRunsWithoutShellExpansion() throws Exception {
        TestJobContext context = context(Map.of("command", List.of("printf", "%s|%s\\n", "a b", "$HOME")));

        job.run(context);

        assertTrue(context.log().messages().contains("stdout: a b|$HOME"), context.log().messages()::toString);
    }

    @Test
    void nonZeroExitFailsWithCodeAndEndOfStderr() {
        TestJobContext context = context(Map.of("command", "echo first >&2; echo disk full >&2; exit 3"));

        JobFailedException failure = assertThrows(JobFailedException.class, () -> job.run(context));

        assertTrue(failure.getMessage().contains("exited with code 3"), failure.getMessage());
        assertTrue(failure.getMessage().endsWith("first\ndisk full"), failure.getMessage());
    }

    @Test
    void commandSeesRoundVariablesItsEnvAndTheDaemonEnvironment() throws Exception {
        TestJobContext context = context(Map.of(
                        "command", "echo \"$LEASECRON_JOB $LEASECRON_INSTANT $LEASECRON_TERM $LEASECRON_RERUN"
                                + " $GREETING ${PATH:+inherited}\"",
                        "env", Map.of("GREETING", "hi", "LEASECRON_TERM", "not allowed")))
                .term(7)
                .rerun(true);

        job.run(context);

        assertTrue(context.log().messages().contains("stdout: backup 2026-12-02T15:04:05Z 7 true hi inherited"),
                context.log().messages()::toString);
    }

    @Test
    void workingDirIsWhereTheCommandRuns(@TempDir Path dir) throws Exception {
        TestJobContext context = context(Map.of("command", "pwd", "workingDir", dir.toString()));

        job.run(context);

        assertTrue(context.log().messages().contains("stdout: " + dir.toRealPath()), context.log().messages()::toString);
    }

    @Test
    void programThatCannotStartFailsNamingIt() {
        TestJobContext context = context(Map.of("command", List.of("/nonexistent/backup-tool")));

        JobFailedException failure = assertThrows(JobFailedException.class, () -> job.run(context));

        // Started through setsid, the program is found missing by setsid, which exits 127 saying so.
        assertTrue(failure.getMessage().contains("/nonexistent/backup-tool")
                && failure.getMessage().contains("No such file or directory"), failure.getMessage());
    }

    @Test
    void commandRunsInAProcessGroupAndSessionOfItsOwnSoSignalsToTheDaemonsGroupMissIt() throws Exception {
        TestJobContext context = context(Map.of("command", "cut -d' ' -f5,6 /proc/$$/stat"));

        job.run(context);

        List<String> command = List.of(context.log().messages().getFirst().substring("stdout: ".length()).split(" "));
        String daemon = Files.readString(Path.of("/proc/self/stat"));
        // Fields after the command name: state, parent, process group, session.
        List<String> fields = List.of(daemon.substring(daemon.lastIndexOf(')') + 2).split(" "));
        assertNotEquals(fields.get(2), command.get(0), "process group");
        assertNotEquals(fields.get(3), command.get(1), "session");
    }

    @Test
    void longLinesAreCutBeforeLogging() throws Exception {
        TestJobContext context = context(Map.of("command", "head -c 100000 /dev/zero | tr '\\0' a; echo; echo short"));

        // The pump reads 100 kB after the exit; a loaded machine must not cut its wait short.
        new ShellJob(Duration.ofSeconds(10)).run(context);

        List<String> messages = context.log().messages();
        assertEquals("stdout: " + "a".repeat(OutputPump.MAX_LINE_CHARS) + BoundedLineReader.CUT_MARK, messages.get(0));
        assertEquals("stdout: short", messages.get(1));
    }

    @Test
    void linesPastTheRoundsBudgetAreCountedInOneTruncatedLine() throws Exception {
        TestJobContext context = context(Map.of("command", "seq 1 25"));

        new ShellJob(Duration.ofSeconds(10), 10).run(context);

        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            expected.add("stdout: " + i);
        }
        expected.add("output truncated: 15 more lines were not logged (a round logs the first 10 lines of its"
                + " command's stdout and stderr)");
        expected.add("command exited with code 0");
        assertEquals(expected, context.log().messages());
    }

    @Test
    void twoHundredKilobytesOfYesLogAThousandLines() throws Exception {
        TestJobContext context = context(Map.of("command", "yes | head -c 200000"));

        new ShellJob(Duration.ofSeconds(10)).run(context);

        List<String> messages = context.log().messages();
        assertEquals(CommandOutput.DEFAULT_MAX_LINES, messages.stream().filter("stdout: y"::equals).count());
        assertEquals(CommandOutput.DEFAULT_MAX_LINES + 2, messages.size(), () -> messages.size() + " messages");
        assertTrue(messages.get(messages.size() - 2).startsWith("output truncated: 99000 more lines"),
                messages.get(messages.size() - 2));
    }

    @Test
    void outputLinesCarryTheRoundsJobAndInstant() throws Exception {
        TestJobContext context = context(Map.of("command", "echo out; echo err >&2"));

        job.run(context);

        List<RecordingLogger.Entry> output = context.log().entries().stream()
                .filter(e -> e.message().startsWith("stdout: ") || e.message().startsWith("stderr: ")).toList();
        assertEquals(2, output.size(), output::toString);
        for (RecordingLogger.Entry line : output) {
            assertEquals("backup", line.mdc().get("job"), line::toString);
            assertEquals("2026-12-02T15:04:05Z", line.mdc().get("instant"), line::toString);
        }
    }

    @Test
    void outputLinesKeepTheMdcOfTheRoundThread() throws Exception {
        TestJobContext context = context(Map.of("command", "echo out"));

        MDC.put("term", "7");
        try {
            job.run(context);
        } finally {
            MDC.clear();
        }

        assertEquals("7", context.log().entries().getFirst().mdc().get("term"), context.log().entries()::toString);
    }

    @Test
    void cancellationKillsTheCommandAndItsChildrenAndEndsTheRound() {
        TestJobContext context = context(Map.of("command", "sleep 1000 & echo $!; wait"));
        RoundThread round = RoundThread.start(job, context);
        long childPid = awaitLoggedPid(context);

        TimeoutException reason = new TimeoutException("round ran past its timeout");
        context.cancellation().cancel(reason);

        await().atMost(Duration.ofSeconds(5)).until(() -> !round.isRunning());
        CancellationException stopped = assertInstanceOf(CancellationException.class, round.failure().orElseThrow());
        assertEquals(reason, stopped.getCause());
        await().atMost(Duration.ofSeconds(5)).until(() -> isGone(childPid));
    }

    @Test
    void commandIgnoringSigtermIsKilledAfterTheGrace() {
        TestJobContext context = context(Map.of("command", "trap '' TERM; sleep 1000 & echo $!; wait; wait"));
        RoundThread round = RoundThread.start(job, context);
        long childPid = awaitLoggedPid(context);

        context.cancellation().cancel(new CancellationException("shutdown"));

        await().atMost(Duration.ofSeconds(5)).until(() -> !round.isRunning());
        assertInstanceOf(CancellationException.class, round.failure().orElseThrow());
        await().atMost(Duration.ofSeconds(5)).until(() -> isGone(childPid));
    }

    @Test
    void interruptWithoutCancellationAlsoKillsTheCommand() {
        TestJobContext context = context(Map.of("command", List.of("sh", "-c", "sleep 1000 & echo $!; wait")));
        RoundThread round = RoundThread.start(job, context);
        long childPid = awaitLoggedPid(context);

        round.interrupt();

        await().atMost(Duration.ofSeconds(5)).until(() -> !round.isRunning());
        assertInstanceOf(InterruptedException.class, round.failure().orElseThrow());
        await().atMost(Duration.ofSeconds(5)).until(() -> isGone(childPid));
    }

    @Test
    void processLeftInTheBackgroundDoesNotHoldTheRoundOpen() {
        TestJobContext context = context(Map.of("command", "sleep 1000 & echo $!"));
        RoundThread round = RoundThread.start(job, context);
        long backgroundPid = awaitLoggedPid(context);
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> !round.isRunning());
            assertEquals(Optional.empty(), round.failure());
        } finally {
            ProcessHandle.of(backgroundPid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void checkParamsAcceptsBothCommandForms() {
        assertEquals(List.of(), job.checkParams(Map.of("command", "echo hi")));
        assertEquals(List.of(), job.checkParams(Map.of(
                "command", List.of("echo", "hi"), "env", Map.of("A", "1"), "workingDir", "/tmp")));
    }

    @Test
    void checkParamsNamesEachBadKey() {
        assertEquals(List.of("params.command: required"), job.checkParams(Map.of()));
        assertEquals(List.of("params.command: must be a string or a list of strings, not the number 5"),
                job.checkParams(Map.of("command", 5)));
        assertEquals(List.of("params.command[1]: must be a string, not the number 2 (quote it)"),
                job.checkParams(Map.of("command", List.of("echo", 2))));
        assertEquals(List.of("params.env.PORT: must be a string, not the number 8080 (quote it)",
                        "params.workingDir: must be a string, not a list (quote it)"),
                job.checkParams(Map.of("command", "true", "env", Map.of("PORT", 8080), "workingDir", List.of())));
        assertEquals(List.of("params.comand: unknown key; known keys: command, env, workingDir",
                        "params.command: required"),
                sorted(job.checkParams(Map.of("comand", "true"))));
    }

    @Test
    void roundWithUnusableParamsFailsWithTheSameMessages() {
        JobFailedException failure = assertThrows(JobFailedException.class, () -> job.run(context(Map.of())));

        assertEquals("unusable params: params.command: required", failure.getMessage());
    }

    private static TestJobContext context(Map<String, Object> params) {
        return new TestJobContext("backup", params);
    }

    private static long awaitLoggedPid(TestJobContext context) {
        return await().atMost(Duration.ofSeconds(5)).until(
                () -> context.log().messages().stream()
                        .filter(m -> m.matches("stdout: \\d+"))
                        .map(m -> Long.parseLong(m.substring("stdout: ".length())))
                        .findFirst(),
                Optional::isPresent).orElseThrow();
    }

    private static boolean isGone(long pid) {
        return ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }

    private static List<String> sorted(List<String> messages) {
        return messages.stream().sorted().toList();
    }
}
