package dev.leasecron.app.scheduler;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the tasks handed in one after another, in that order, on one virtual thread at a time, started
 * when a task arrives and none is running. For what follows rounds' ends answered together: a batch
 * statement answers hundreds of finishes at once, and a thread started for each had those threads
 * compete for the carriers with the rounds of the same instant still starting. What runs here must not
 * wait on anything slow, since every task behind it waits too.
 */
final class SerialEndings implements Executor {
    private final String threadName;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean();

    SerialEndings(String threadName) {
        this.threadName = threadName;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (running.compareAndSet(false, true)) {
            Thread.ofVirtual().name(threadName).start(this::drain);
        }
    }

    private void drain() {
        do {
            Runnable task;
            while ((task = tasks.poll()) != null) {
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    // One task failing leaves the others to run, and its failure where a thread's would go.
                    Thread.currentThread().getUncaughtExceptionHandler().uncaughtException(Thread.currentThread(), e);
                }
            }
            running.set(false);
            // A task added after the last poll, whose caller found this thread still running, is run here.
        } while (!tasks.isEmpty() && running.compareAndSet(false, true));
    }
}
