package dev.leasecron.app.testing;

import dev.leasecron.jobs.Job;
import dev.leasecron.jobs.JobContext;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** Runs one round of a job on its own thread, as the scheduler would, and keeps how it ended. */
public final class RoundThread {
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private RoundThread(Job job, JobContext context) {
        thread = Thread.ofVirtual().name("round-" + context.jobName()).unstarted(() -> {
            try {
                job.run(context);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
    }

    public static RoundThread start(Job job, JobContext context) {
        RoundThread round = new RoundThread(job, context);
        round.thread.start();
        return round;
    }

    public boolean isRunning() {
        return thread.isAlive();
    }

    public void interrupt() {
        thread.interrupt();
    }

    /** What the round threw, once it has ended; empty for success. */
    public Optional<Throwable> failure() {
        if (thread.isAlive()) {
            throw new IllegalStateException("the round is still running");
        }
        return Optional.ofNullable(failure.get());
    }
}
