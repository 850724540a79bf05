package dev.leasecron.app.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.encoder.Encoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import net.logstash.logback.encoder.CompositeJsonEncoder;
import net.logstash.logback.encoder.StreamingEncoder;

/**
 * Writes entries to stdout (or stderr) from one platform thread of its own, a group at a time, and
 * returns to the thread that logged once its entry is written: a line logged is in the operating
 * system's hands when the call returns, as with a plain console appender, so a replica killed
 * afterwards has not lost it.
 *
 * <p>Why not encode on the logging thread: every round runs on a virtual thread of its own, and
 * the JSON encoder keeps its generator and buffers per thread, released only once a collection has
 * found the thread dead. Encoded there, each round's first line would build a new set (half of the
 * daemon's allocation under load), and every young collection would copy the sets of the rounds
 * ended since the last one into the old generation. Encoded here, one set serves every line. Why not Logback's
 * AsyncAppender: its caller returns before the line is written, so a SIGKILL loses what it queued,
 * and the fault harness and operators read a killed replica's last lines.
 *
 * <p>What a group costs: one write and one flush for all the lines logged while the previous group
 * was being written.
 */
final class GroupWriteAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition logged = lock.newCondition();
    /** The encoded group, reused: only the writer thread touches it. */
    private final ByteArrayOutputStream encoded = new ByteArrayOutputStream(64 * 1024);
    private Encoder<ILoggingEvent> encoder;
    /** The stream of the moment, as Logback's console appender writes to: tests swap System.out. */
    private Supplier<PrintStream> target = () -> System.out;
    /** The encoder when it can write into the group's buffer, not through an array of its own. */
    private StreamingEncoder<ILoggingEvent> streaming;
    private Group open = new Group();
    private boolean stopping;
    private Thread writer;

    /** Entries logged while the previous group was written, and the signal that they are. */
    private static final class Group {
        final List<ILoggingEvent> entries = new ArrayList<>();
        final CountDownLatch written = new CountDownLatch(1);

        void awaitWritten() {
            boolean interrupted = false;
            while (true) {
                try {
                    written.await();
                    break;
                } catch (InterruptedException e) {
                    // A round cut short is interrupted while it logs; its line is written all the same.
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    void setTarget(Supplier<PrintStream> target) {
        this.target = target;
    }

    void setEncoder(Encoder<ILoggingEvent> encoder) {
        this.encoder = encoder;
        this.streaming = encoder instanceof CompositeJsonEncoder<ILoggingEvent> json ? json : null;
    }

    @Override
    public void start() {
        if (encoder == null) {
            addError("no encoder for appender " + name);
            return;
        }
        stopping = false;
        writer = Thread.ofPlatform().daemon().name("log-writer").start(this::writeGroups);
        super.start();
    }

    @Override
    public void stop() {
        if (!isStarted()) {
            return;
        }
        super.stop();
        lock.lock();
        try {
            stopping = true;
            logged.signal();
        } finally {
            lock.unlock();
        }
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    protected void append(ILoggingEvent entry) {
        if (Thread.currentThread() == writer) {
            // Only an encoder that logs gets here, mid-group: waiting on its own group would never end.
            writeAlone(entry);
            return;
        }
        // The thread's name, the MDC and the message are read now, on the thread that logged.
        entry.prepareForDeferredProcessing();
        Group group = null;
        lock.lock();
        try {
            if (!stopping) {
                group = open;
                group.entries.add(entry);
                logged.signal();
            }
        } finally {
            lock.unlock();
        }
        if (group != null) {
            group.awaitWritten();
        } else {
            // Logged while the appender stopped: the writer may be gone.
            writeAlone(entry);
        }
    }

    private void writeGroups() {
        while (true) {
            Group group;
            lock.lock();
            try {
                while (open.entries.isEmpty() && !stopping) {
                    logged.awaitUninterruptibly();
                }
                if (open.entries.isEmpty()) {
                    return;
                }
                group = open;
                open = new Group();
            } finally {
                lock.unlock();
            }
            try {
                write(group.entries);
            } catch (RuntimeException | Error e) {
                addError("could not write log entries", e);
            } finally {
                group.written.countDown();
            }
        }
    }

    private void write(List<ILoggingEvent> entries) {
        encoded.reset();
        for (ILoggingEvent entry : entries) {
            try {
                if (streaming != null) {
                    streaming.encode(entry, encoded);
                } else {
                    encoded.writeBytes(encoder.encode(entry));
                }
            } catch (IOException | RuntimeException e) {
                addError("could not encode a log entry", e);
            }
        }
        try {
            PrintStream out = target.get();
            encoded.writeTo(out);
            out.flush();
        } catch (IOException e) {
            addError("could not write log entries", e);
        }
    }

    private void writeAlone(ILoggingEvent entry) {
        try {
            PrintStream out = target.get();
            out.write(encoder.encode(entry));
            out.flush();
        } catch (IOException | RuntimeException e) {
            addError("could not write a log entry", e);
        }
    }
}
