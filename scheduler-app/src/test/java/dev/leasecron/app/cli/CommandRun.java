package dev.leasecron.app.cli;

import dev.leasecron.app.plugins.HttpJob;
import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.ShellJob;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.Map;
import picocli.CommandLine;

/** One run of the command line in the test's JVM, with the built-in job types: its exit status and what it printed. */
record CommandRun(int status, String out, String err) {

    static CommandRun of(Clock clock, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine(
                new CliContext(Map.of(), clock, folder -> JobRegistry.of(new ShellJob(), new HttpJob())));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int status = commandLine.execute(args);
        return new CommandRun(status, out.toString(), err.toString());
    }
}
