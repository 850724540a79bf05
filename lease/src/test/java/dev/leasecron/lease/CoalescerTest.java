package dev.leasecron.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Calls of many threads gathered into batch calls, each caller handed its own answer. */
class CoalescerTest {
    private final List<List<Integer>> batches = new CopyOnWriteArrayList<>();

    private BatchResult<Integer, String> answer(List<Integer> keys) {
        batches.add(keys);
        Map<Integer, String> answered = new HashMap<>();
        Map<Integer, LeaseDatabaseException> failed = new HashMap<>();
        for (Integer k : keys) {
            if (k < 0) {
                failed.put(k, new LeaseDatabaseException("statement for " + k + " failed", null));
            } else {
                answered.put(k, "answer " + k);
            }
        }
        return new BatchResult<>(answered, failed);
    }

    @Test
    void callsArrivingWithinTheWindowShareOneBatchAndGetTheirOwnAnswers() throws Exception {
        // A window long enough that a loaded machine still starts every thread within it.
        Coalescer<Integer, String> coalescer = new Coalescer<>("test", Duration.ofMillis(500), this::answer);
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        CountDownLatch ready = new CountDownLatch(1);
        List<Future<String>> answers = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            int key = i;
            answers.add(threads.submit(() -> {
                ready.await();
                return coalescer.call(key);
            }));
        }
        ready.countDown();
        for (int i = 0; i < 50; i++) {
            assertEquals("answer " + i, answers.get(i).get());
        }
        assertEquals(1, batches.size(), "one batch: " + batches);
        assertEquals(50, batches.getFirst().size());
        threads.shutdown();
    }

    @Test
    void aLoneCallGoesOutAsABatchOfOne() throws Exception {
        Coalescer<Integer, String> coalescer = new Coalescer<>("test", Duration.ofMillis(1), this::answer);
        assertEquals("answer 7", coalescer.call(7));
        assertEquals("answer 8", coalescer.call(8));
        assertEquals(List.of(List.of(7), List.of(8)), batches);
    }

    @Test
    void aSubmitReturnsBeforeItsBatchIsAnsweredAndItsAnswerCompletesWithTheBatch() throws Exception {
        CountDownLatch statementMayReturn = new CountDownLatch(1);
        Coalescer<Integer, String> coalescer = new Coalescer<>("test", Duration.ofMillis(300), keys -> {
            try {
                statementMayReturn.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return answer(keys);
        });
        CompletableFuture<String> good = coalescer.submit(1);
        CompletableFuture<String> bad = coalescer.submit(-1);
        assertFalse(good.isDone() || bad.isDone(), "the caller goes on while the batch is out");

        statementMayReturn.countDown();
        assertEquals("answer 1", good.get());
        var e = assertThrows(java.util.concurrent.ExecutionException.class, bad::get);
        assertTrue(e.getCause() instanceof LeaseDatabaseException, e.toString());
        assertEquals(List.of(List.of(1, -1)), batches, "both submits in one batch");
    }

    @Test
    void callsArrivingWhileABatchIsOutGoTogetherInTheNextOne() throws Exception {
        CountDownLatch firstOut = new CountDownLatch(1);
        CountDownLatch firstMayReturn = new CountDownLatch(1);
        Coalescer<Integer, String> coalescer = new Coalescer<>("test", Duration.ZERO, keys -> {
            firstOut.countDown();
            try {
                if (keys.contains(0)) {
                    firstMayReturn.await();
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return answer(keys);
        });
        CompletableFuture<String> first = coalescer.submit(0);
        firstOut.await();
        List<CompletableFuture<String>> next = List.of(coalescer.submit(1), coalescer.submit(2), coalescer.submit(3));
        firstMayReturn.countDown();

        assertEquals("answer 0", first.get());
        for (int i = 0; i < 3; i++) {
            assertEquals("answer " + (i + 1), next.get(i).get());
        }
        assertEquals(List.of(List.of(0), List.of(1, 2, 3)), batches, "one sender, one batch after the other");
    }

    @Test
    void aKeyWhoseStatementFailedGetsItsFailureAndTheOthersTheirAnswers() throws Exception {
        Coalescer<Integer, String> coalescer = new Coalescer<>("test", Duration.ofMillis(300), this::answer);
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        Future<String> good = threads.submit(() -> coalescer.call(1));
        Future<String> bad = threads.submit(() -> coalescer.call(-1));
        assertEquals("answer 1", good.get());
        var e = assertThrows(java.util.concurrent.ExecutionException.class, bad::get);
        assertTrue(e.getCause() instanceof LeaseDatabaseException, e.toString());
        threads.shutdown();
    }

    @Test
    void aKeyTheBatchLeavesUnansweredFailsItsCallerInsteadOfWaitingForever() {
        Coalescer<Integer, String> coalescer = new Coalescer<>("test", Duration.ZERO, keys -> new BatchResult<>(Map.of(), Map.of()));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> coalescer.call(3));
        assertEquals("test gave no answer for 3", e.getMessage());
    }

    @Test
    void anUnexpectedFailureOfTheBatchReachesEveryCaller() {
        IllegalStateException boom = new IllegalStateException("boom");
        Coalescer<Integer, String> coalescer = new Coalescer<>("test", Duration.ZERO, keys -> {
            throw boom;
        });
        assertSame(boom, assertThrows(IllegalStateException.class, () -> coalescer.call(1)));
    }
}
