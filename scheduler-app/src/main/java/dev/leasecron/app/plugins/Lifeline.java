package dev.leasecron.app.plugins;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Ties a shell job's command to the daemon's life: when the daemon dies in any way, SIGKILL
 * included, the command's process group gets SIGKILL, so the instant's rerun elsewhere never runs
 * beside an orphan of the round it replaces.
 *
 * <p>How: the command is started through {@code sh}, which first forks a watcher (twice, so that
 * it is no child of the command: a command waiting for all its children would otherwise wait for
 * it) and then execs the command in place, with an empty stdin. The watcher blocks reading the
 * pipe that was the shell's stdin, whose write end only the daemon holds (the JVM closes every
 * other descriptor in the processes it starts). That end closes in two cases: the command has
 * exited (the JVM closes a process's stdin once it has reaped it, and the round closes it too), or
 * the daemon died, whereupon the kernel closes it. The watcher tells them apart by whether the
 * command still runs: if it does, the daemon is gone, and the watcher kills the command's process
 * group (its own, from {@code setsid}), or the command alone where there is no {@code setsid}. A
 * command that ended with its round is left alone, and so is anything it left in the background.
 *
 * <p>Not {@code PR_SET_PDEATHSIG} ({@code setpriv --pdeathsig}, util-linux): that signal fires
 * when the <em>thread</em> that started the process ends. The JVM forks on the calling thread, and
 * for a virtual thread that is its carrier, which the scheduler retires after 30 s idle: tried on
 * JDK 25, a {@code setpriv --pdeathsig KILL sleep 100} started from a platform thread died when
 * that thread ended, and one started from a virtual thread died about 30 s later, with the JVM
 * running on. It would also reach the command only, not the processes the command started.
 *
 * <p>The watcher ignores the signals a terminal or a supervisor sends to the daemon's process
 * group, which it shares: it runs only shell builtins, so ignoring them changes nothing else.
 * What survives the daemon: processes the command moved out of its process group (its own
 * {@code setsid}, a daemonizing tool), and everything on a host without {@code /bin/sh}.
 */
final class Lifeline {
    /** {@code sh}, which runs the watcher; without it commands run untied, as they always did. */
    private static final Optional<Path> SH = Stream.of("/bin/sh", "/usr/bin/sh").map(Path::of)
            .filter(Files::isExecutable).findFirst();

    /**
     * Inside a subshell {@code $$} is still the pid of the outer shell, which the command takes over
     * through {@code exec}; after {@code setsid}, that pid is also the command's process group.
     * {@code read} returns at the end of the pipe (nothing is ever written to it).
     */
    private static final String SCRIPT = """
            exec 3<&0 </dev/null
            ( ( trap '' HUP INT QUIT TERM PIPE
                read -r line <&3
                if kill -0 $$; then kill -KILL -$$ || kill -KILL $$; fi ) >/dev/null 2>&1 & )
            exec "$@" 3<&-
            """;

    /** The name the watcher's shell goes by ({@code $0}), as {@code ps} shows it. */
    static final String NAME = "leasecron-lifeline";

    private Lifeline() {}

    /** Whether commands are tied to the daemon here: {@code sh} is installed. */
    static boolean available() {
        return SH.isPresent();
    }

    /** {@code argv} run through the watcher's shell, when there is one; as it is otherwise. */
    static List<String> around(List<String> argv) {
        return SH.map(sh -> Stream.concat(Stream.of(sh.toString(), "-c", SCRIPT, NAME), argv.stream()).toList())
                .orElse(argv);
    }

    /**
     * Holds the lifeline of {@code process}, started from {@link #around}. Untied, the command's
     * stdin is closed at once, so that it reads an empty stdin either way.
     */
    static Held hold(Process process) {
        Held held = new Held(process.getOutputStream());
        if (!available()) {
            held.release();
        }
        return held;
    }

    /** The write end of one command's lifeline. */
    record Held(OutputStream end) {
        /**
         * Closes the daemon's end; called once the command has exited or been stopped, when the
         * watcher then finds it gone and exits. Closing it earlier would have the watcher kill the
         * command.
         */
        void release() {
            try {
                end.close();
            } catch (IOException e) {
                // Closing the write end of a pipe does not fail for want of a reader; nothing to undo.
            }
        }
    }
}
