package dev.leasecron.app.plugins;

import java.io.IOException;
import java.io.Reader;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.MDC;

/**
 * Copies one output stream of a child process, line by line, to a consumer (the round's log), on
 * its own thread, so that the child never blocks on a full pipe. Ends when the stream closes: when
 * the child and every descendant holding the pipe have exited. Its lines are logged under the MDC
 * fields it was given.
 */
final class OutputPump implements Runnable {
    /** Longest line kept; longer ones are cut, so one line never holds much memory. */
    static final int MAX_LINE_CHARS = 8_192;

    private final Reader output;
    private final Map<String, String> fields;
    private final Consumer<String> lines;

    OutputPump(Reader output, Map<String, String> fields, Consumer<String> lines) {
        this.output = output;
        this.fields = Map.copyOf(fields);
        this.lines = lines;
    }

    /** Starts a virtual thread that pumps {@code output} into {@code lines}, with {@code fields} as its MDC. */
    static Thread start(String name, Reader output, Map<String, String> fields, Consumer<String> lines) {
        return Thread.ofVirtual().name(name).start(new OutputPump(output, fields, lines));
    }

    @Override
    public void run() {
        MDC.setContextMap(fields);
        try (output) {
            BoundedLineReader reader = new BoundedLineReader(output, MAX_LINE_CHARS);
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.accept(line);
            }
        } catch (IOException e) {
            // Said where the output goes rather than thrown on a thread nobody joins for errors.
            lines.accept("[output could not be read further: " + e.getMessage() + "]");
        } finally {
            MDC.clear();
        }
    }
}
