package dev.leasecron.lease;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Gathers the single calls of many threads arriving within a short window into one batch call, and
 * hands each caller its own answer: the way per-job loops, each on a thread of its own and each
 * logging its own round, share the batch statements of {@link Leases}.
 *
 * <p>The first call after a batch has gone out opens the next one and sends it {@code window} later
 * with every call that arrived meanwhile; the batch call splits what it is given into statements of
 * its own size. A lone call thus waits one window and goes out as a batch of one. A batch call may
 * answer in parts, one per statement ({@link #inParts}): each caller then goes on as soon as its own
 * statement has returned, not when the whole batch has. A caller whose key the batch could not answer
 * gets the {@link LeaseDatabaseException} of its statement, as from the single call; an unexpected
 * failure of the batch reaches every caller not answered yet.
 *
 * @param <K> what a caller asks about: a name, a handle
 * @param <V> its answer
 */
public final class Coalescer<K, V> {
    private final String name;
    private final Duration window;
    private final PartedBatch<K, V> batch;
    private final Object lock = new Object();
    private List<Waiting<K, V>> gathering;

    private record Waiting<K, V>(K key, CompletableFuture<V> answer) {}

    /**
     * A batch call that answers its keys in parts, as its statements return.
     *
     * @param <K> what a caller asks about
     * @param <V> its answer
     */
    @FunctionalInterface
    public interface PartedBatch<K, V> {
        /**
         * Answers every key of {@code keys}, each once, through {@code part}, called once per statement
         * (or any other part) before this method returns.
         */
        void send(List<K> keys, Consumer<BatchResult<K, V>> part);
    }

    /**
     * @param name what the sending thread is named after
     * @param window how long a batch gathers calls after the first; a lone call waits this long
     * @param batch the batch call, answering each key given
     */
    public Coalescer(String name, Duration window, Function<List<K>, BatchResult<K, V>> batch) {
        Objects.requireNonNull(batch, "batch");
        this(name, window, (PartedBatch<K, V>) (keys, part) -> part.accept(batch.apply(keys)));
    }

    private Coalescer(String name, Duration window, PartedBatch<K, V> batch) {
        this.name = Objects.requireNonNull(name, "name");
        this.window = Objects.requireNonNull(window, "window");
        this.batch = batch;
        if (window.isNegative()) {
            throw new IllegalArgumentException("window must not be negative, not " + window);
        }
    }

    /**
     * A coalescer whose batch call answers in parts: the callers of each part go on as it comes.
     *
     * @param name what the sending thread is named after
     * @param window how long a batch gathers calls after the first; a lone call waits this long
     * @param batch the batch call, answering each key given, part by part
     */
    public static <K, V> Coalescer<K, V> inParts(String name, Duration window, PartedBatch<K, V> batch) {
        return new Coalescer<>(name, window, Objects.requireNonNull(batch, "batch"));
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
     * Asks about {@code key} in the next batch without waiting: the caller's thread is free to end
     * while the batch gathers and its statement runs. The answer completes on the batch's sending
     * thread, so what depends on it should move to a thread of its own rather than hold that one up;
     * it completes exceptionally with the {@link LeaseDatabaseException} of a statement that failed.
     */
    public CompletableFuture<V> submit(K key) {
        CompletableFuture<V> answer = new CompletableFuture<>();
        boolean opens;
        synchronized (lock) {
            opens = gathering == null;
            if (opens) {
                gathering = new ArrayList<>();
            }
            gathering.add(new Waiting<>(key, answer));
        }
        if (opens) {
            // A platform thread: the callers are typically a thousand virtual threads woken by the
            // same instant, and a virtual sender would queue behind them for a carrier after each
            // database round trip, holding back the statement they all wait for.
            Thread.ofPlatform().daemon().name(name).start(this::sendAfterWindow);
        }
        return answer;
    }

    private void sendAfterWindow() {
        try {
            Thread.sleep(window);
        } catch (InterruptedException e) {
            // Nothing interrupts this thread but the JVM ending; send what was gathered regardless.
        }
        List<Waiting<K, V>> sending;
        synchronized (lock) {
            sending = gathering;
            gathering = null;
        }
        Map<K, List<CompletableFuture<V>>> waiting = new HashMap<>();
        sending.forEach(w -> waiting.computeIfAbsent(w.key(), k -> new ArrayList<>(1)).add(w.answer()));
        try {
            batch.send(sending.stream().map(Waiting::key).toList(), part -> {
                part.failed().forEach((key, failed) -> answer(waiting, key, a -> a.completeExceptionally(failed)));
                part.answered().forEach((key, value) -> answer(waiting, key, a -> a.complete(value)));
            });
            // A key the batch call left unanswered is its bug: the caller fails rather than waits forever.
            sending.stream().filter(w -> !w.answer().isDone()).forEach(w -> w.answer().completeExceptionally(
                    new IllegalStateException(name + " gave no answer for " + w.key())));
        } catch (RuntimeException | Error e) {
            sending.forEach(w -> w.answer().completeExceptionally(e));
        }
    }

    private static <K, V> void answer(Map<K, List<CompletableFuture<V>>> waiting, K key,
            Consumer<CompletableFuture<V>> how) {
        List<CompletableFuture<V>> answers = waiting.get(key);
        if (answers != null) {
            answers.forEach(how);
        }
    }
}
