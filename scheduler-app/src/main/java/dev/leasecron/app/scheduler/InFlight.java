package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseScope;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Counts the rounds running on this replica, so a shutdown can wait for them; and the claims out,
 * which may win a round. A claim commits before its statement returns: a round counted only once its
 * thread ran would leave a moment in which a shutdown sees nothing running and closes the pool under
 * a round just won, which then cannot record its end and is run again elsewhere. So every claim is
 * counted from before it is sent ({@link #count()}), and the round it wins is counted, by
 * {@link #start}, before the claim's count ends.
 *
 * <p>A claim is counted before it checks that claiming goes on, never after: the shutdown cancels
 * claiming first and reads the count after, so either the claim sees the cancellation and is not
 * sent, or the shutdown sees it counted.
 */
final class InFlight {
    private int rounds;
    private int claims;

    /** One count, ended by {@link #close()}; closing it again does nothing. */
    final class Count implements AutoCloseable {
        private final boolean round;
        private boolean open = true; // guarded by the InFlight

        private Count(boolean round) {
            this.round = round;
        }

        @Override
        public void close() {
            synchronized (InFlight.this) {
                if (open) {
                    open = false;
                    exit(round);
                }
            }
        }
    }

    /** Counts from now a claim, or any work that may win a round, until the count is closed. */
    Count count() {
        enter(false);
        return new Count(false);
    }

    /** Runs {@code round} on a virtual thread named {@code name}, counted from now until it returns. */
    void start(String name, Runnable round) {
        enter(true);
        Count count = new Count(true);
        try {
            Thread.ofVirtual().name(name).start(() -> {
                try (count) {
                    round.run();
                }
            });
        } catch (RuntimeException | Error e) {
            count.close();
            throw e;
        }
    }

    /**
     * Claims with {@code claim}, counted while it is out, unless {@code claiming} has ended, and runs
     * the round it wins, if any, with {@link #start}.
     *
     * @return false when claiming has ended and nothing was sent
     */
    <H> boolean claimAndStart(LeaseScope claiming, String name, Supplier<Optional<H>> claim, Consumer<H> round) {
        try (Count out = count()) {
            if (claiming.isCancelled()) {
                return false;
            }
            claim.get().ifPresent(won -> start(name, () -> round.accept(won)));
            return true;
        }
    }

    private synchronized void enter(boolean round) {
        if (round) {
            rounds++;
        } else {
            claims++;
        }
    }

    private synchronized void exit(boolean round) {
        if (round) {
            rounds--;
        } else {
            claims--;
        }
        if (rounds == 0 && claims == 0) {
            notifyAll();
        }
    }

    /** The rounds running now; the claims out are not among them. */
    synchronized int running() {
        return rounds;
    }

    /** Waits up to {@code timeout} for every round to end and every claim to return; true if none is left. */
    synchronized boolean awaitNone(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (rounds > 0 || claims > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }
}
