package dev.leasecron.lease;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A group commit: the single calls of many threads become one batch call, and each caller gets its own
 * answer. One sender thread per coalescer takes every call waiting, waits {@code window} for the calls
 * arriving with the first, and sends them as one batch; the calls that arrive while a batch is out wait
 * for it and go together in the next. Under load, batches grow with the time a statement takes; a lone
 * call waits one window and goes out as a batch of one. The batch call splits what it is given into
 * statements of its own size. A caller whose key the batch could not answer gets the
 * {@link LeaseDatabaseException} of its statement, as from the single call; an unexpected failure of
 * the batch reaches every caller of it.
 *
 * <p>The sender lives while it has work: it ends after {@link #IDLE} with nothing asked, and the next
 * call starts it again, so an object no longer used leaves no thread behind.
 *
 * @param <K> what a caller asks about: a name, a handle
 * @param <V> its answer
 */
public final class Coalescer<K, V> {
    /** How long the sender waits for a call before it ends. */
    static final Duration IDLE = Duration.ofSeconds(30);

    private final String name;
    private final Duration window;
    private final Function<List<K>, BatchResult<K, V>> batch;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}, as {@link #senderRunning} is. */
    private List<Waiting<K, V>> waiting = new ArrayList<>();
    private boolean senderRunning;

    private record Waiting<K, V>(K key, CompletableFuture<V> answer) {}

    /**
     * @param name what the sending thread is named after
     * @param window how long a batch gathers calls after the first; a lone call waits this long
     * @param batch the batch call, answering each key given
     */
    public Coalescer(String name, Duration window, Function<List<K>, BatchResult<K, V>> batch) {
        this.name = Objects.requireNonNull(name, "name");
        this.window = Objects.requireNonNull(window, "window");
        this.batch = Objects.requireNonNull(batch, "batch");
        if (window.isNegative()) {
            throw new IllegalArgumentException("window must not be negative, not " + window);
        }
    }

    /**
     * Asks about {@code key} in the next batch and waits for its answer.
     *
     * @throws LeaseDatabaseException the statement that was to answer for {@code key} failed
     * @throws InterruptedException the wait was interrupted; the batch goes out all the same
     */
    public V call(K key) throws InterruptedException {
        try {
            return submit(key).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(name + " failed", e.getCause());
        }
    }

    /**
     * Asks about {@code key} in the next batch without waiting. The answer completes on the sending
     * thread, so what depends on it should not hold that thread up; it completes exceptionally with
     * the {@link LeaseDatabaseException} of a statement that failed.
     */
    public CompletableFuture<V> submit(K key) {
        CompletableFuture<V> answer = new CompletableFuture<>();
        synchronized (lock) {
            waiting.add(new Waiting<>(key, answer));
            if (!senderRunning) {
                senderRunning = true;
                // A platform thread: the callers are typically rounds on virtual threads, and a virtual
                // sender would queue behind them for a carrier after each round trip.
                Thread.ofPlatform().daemon().name(name).start(this::sendWhileAsked);
            } else if (waiting.size() == 1) {
                lock.notify();
            }
        }
        return answer;
    }

    private void sendWhileAsked() {
        while (awaitCall()) {
            try {
                Thread.sleep(window);
            } catch (InterruptedException e) {
                // Nothing interrupts this thread but the JVM ending; send what was gathered regardless.
            }
            List<Waiting<K, V>> sending;
            synchronized (lock) {
                sending = waiting;
                waiting = new ArrayList<>();
            }
            send(sending);
        }
    }

    /** Waits for a call; false, the sender marked as ended, when none came within {@link #IDLE}. */
    private boolean awaitCall() {
        long deadline = System.nanoTime() + IDLE.toNanos();
        synchronized (lock) {
            while (waiting.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    senderRunning = false;
                    return false;
                }
                try {
                    lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    // As above: only the JVM ending interrupts it.
                }
            }
            return true;
        }
    }

    private void send(List<Waiting<K, V>> sending) {
        Map<K, List<CompletableFuture<V>>> byKey = new LinkedHashMap<>();
        sending.forEach(w -> byKey.computeIfAbsent(w.key(), k -> new ArrayList<>(1)).add(w.answer()));
        try {
            BatchResult<K, V> result = batch.apply(List.copyOf(byKey.keySet()));
            result.failed().forEach((key, failed) -> answer(byKey, key, a -> a.completeExceptionally(failed)));
            result.answered().forEach((key, value) -> answer(byKey, key, a -> a.complete(value)));
            // A key the batch call left unanswered is its bug: the caller fails rather than waits forever.
            sending.stream().filter(w -> !w.answer().isDone()).forEach(w -> w.answer().completeExceptionally(
                    new IllegalStateException(name + " gave no answer for " + w.key())));
        } catch (RuntimeException | Error e) {
            sending.forEach(w -> w.answer().completeExceptionally(e));
        }
    }

    private static <K, V> void answer(Map<K, List<CompletableFuture<V>>> byKey, K key,
            Consumer<CompletableFuture<V>> how) {
        List<CompletableFuture<V>> answers = byKey.get(key);
        if (answers != null) {
            answers.forEach(how);
        }
    }
}
