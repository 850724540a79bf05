package dev.leasecron.app.plugins;

import dev.leasecron.app.testing.RoundThread;
import dev.leasecron.app.testing.TestJobContext;
import java.util.Map;

/**
 * A stand-in daemon for {@link CommandDiesWithDaemonTest}: a JVM of its own that runs one round of
 * a {@code shell} job, on a virtual thread as the scheduler does, and then waits to be killed.
 * Argument: the command.
 */
public final class ShellJobHost {
    private ShellJobHost() {}

    public static void main(String[] args) throws InterruptedException {
        RoundThread.start(new ShellJob(), new TestJobContext("orphan-check", Map.of("command", args[0])));
        Thread.sleep(Long.MAX_VALUE);
    }
}
