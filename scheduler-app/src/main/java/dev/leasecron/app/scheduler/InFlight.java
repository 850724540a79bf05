package dev.leasecron.app.scheduler;

import java.time.Duration;

/** Counts the rounds running on this replica, so a shutdown can wait for them. */
final class InFlight {
    private int running;

    synchronized void enter() {
        running++;
    }

    synchronized void exit() {
        running--;
        if (running == 0) {
            notifyAll();
        }
    }

    synchronized int running() {
        return running;
    }

    /** Waits up to {@code timeout} for every round to end; true if none is left. */
    synchronized boolean awaitNone(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (running > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }
}
