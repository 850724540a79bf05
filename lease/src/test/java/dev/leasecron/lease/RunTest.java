package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Run: the work under a lease, its result, and the process failing when it will not stop after a loss. */
class RunTest {
    private static final Logger LOG = LoggerFactory.getLogger(RunTest.class);

    /** A step-down grace of 300 ms, and renewals that find a forced expiry within a few 100 ms. */
    private static final LeaseTimings TIMINGS = new LeaseTimings(
            Duration.ofMillis(3000), Duration.ofMillis(100), Duration.ofMillis(2000), Duration.ofMillis(300));

    /** A lease held for one test: the handle, its renewals, and the parent scope a shutdown cancels. */
    private record Held(Leases leases, Handle handle, LeaseScope parent, Holding holding) implements AutoCloseable {
        static Held claim(TestDatabase db, String prefix) {
            Leases leases = db.leases(TIMINGS);
            Handle h = leases.claim(uniqueName(prefix)).orElseThrow();
            LeaseScope parent = LeaseScope.root();
            return new Held(leases, h, parent, leases.hold(h, parent, LOG));
        }

        <T> T run(LeaseWork<T> work) throws Exception {
            return leases.run(holding.scope(), handle, LOG, work);
        }

        /** Runs the work on a thread of the test's own, so the test can watch Run wait. */
        <T> CompletableFuture<T> runAsync(LeaseWork<T> work) {
            CompletableFuture<T> result = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try {
                    result.complete(run(work));
                } catch (Throwable t) {
                    result.completeExceptionally(t);
                }
            });
            return result;
        }

        @Override
        public void close() {
            holding.stop();
        }
    }

    /** Work that will not stop: it swallows every interruption until {@code release} opens. */
    private static String ignoringEveryStop(CountDownLatch release) {
        while (true) {
            try {
                release.await();
                return "stopped at last";
            } catch (InterruptedException e) {
                // Ignored on purpose: this is the work the fail hook exists for.
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void returnsWhatTheWorkReturned(TestDatabase db) throws Exception {
        try (Held held = Held.claim(db, "run-value")) {
            assertEquals("result", held.run(scope -> "result"));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void workSeesTheCurrentLeaseAndNothingOutsideDoes(TestDatabase db) throws Exception {
        try (Held held = Held.claim(db, "run-current")) {
            List<Object> seen = held.run(scope -> List.of(CurrentLease.handle(), CurrentLease.term(), CurrentLease.scope(),
                    Optional.of(scope)));

            assertEquals(Optional.of(held.handle()), seen.get(0));
            assertEquals(OptionalLong.of(held.handle().term()), seen.get(1));
            assertEquals(Optional.of(held.holding().scope()), seen.get(2));
            assertEquals(seen.get(2), seen.get(3), "the scope the work is given is the current one");
            assertTrue(CurrentLease.handle().isEmpty());
            assertTrue(CurrentLease.term().isEmpty());
            assertTrue(CurrentLease.scope().isEmpty());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void exceptionFromTheWorkComesBackAsTheSameInstanceWithItsStack(TestDatabase db) throws Exception {
        List<IOException> thrown = new CopyOnWriteArrayList<>();
        try (Held held = Held.claim(db, "run-exception")) {
            IOException back = assertThrows(IOException.class, () -> held.run(scope -> failingWork(thrown)));

            assertSame(thrown.getFirst(), back);
            assertTrue(Arrays.stream(back.getStackTrace()).anyMatch(e -> e.getMethodName().equals("failingWork")),
                    "the stack of the throw site is kept");
        }
    }

    private static String failingWork(List<IOException> thrown) throws IOException {
        IOException e = new IOException("the work failed");
        thrown.add(e);
        throw e;
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void errorFromTheWorkComesBackWrappedWithTheOriginalAsCause(TestDatabase db) throws Exception {
        try (Held held = Held.claim(db, "run-error")) {
            ExecutionException back = assertThrows(ExecutionException.class, () -> held.run(scope -> panickingWork()));

            assertInstanceOf(LinkageError.class, back.getCause());
            assertEquals("the work panicked", back.getCause().getMessage());
            assertTrue(Arrays.stream(back.getCause().getStackTrace()).anyMatch(e -> e.getMethodName().equals("panickingWork")),
                    "the stack of the panic site is kept");
        }
    }

    private static String panickingWork() {
        throw new LinkageError("the work panicked");
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void workThreadIsInterruptedWhenTheScopeEnds(TestDatabase db) throws Exception {
        try (Held held = Held.claim(db, "run-interrupt")) {
            CompletableFuture<String> result = held.runAsync(scope -> {
                try {
                    new CountDownLatch(1).await();
                    return "never";
                } catch (InterruptedException e) {
                    return "interrupted";
                }
            });
            held.parent().cancel("shutdown");

            assertEquals("interrupted", result.get());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void workRunsOnTheCallingThreadAndTheInterruptOfAShutdownDoesNotOutliveIt(TestDatabase db) throws Exception {
        try (Held held = Held.claim(db, "run-same-thread")) {
            Thread caller = Thread.currentThread();
            String result = held.run(scope -> {
                assertSame(caller, Thread.currentThread());
                held.parent().cancel("shutdown");
                return Thread.currentThread().isInterrupted() ? "interrupted" : "not interrupted";
            });

            assertEquals("interrupted", result, "the scope's end reaches the work");
            assertFalse(Thread.currentThread().isInterrupted(), "the caller goes on uninterrupted to record the end");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void workIgnoringALossPastTheGraceFailsTheProcessAndRunStillWaitsForIt(TestDatabase db) throws Exception {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        try (LeaseFailure.Restore restore = LeaseFailure.setFail(failures::add);
                Held held = Held.claim(db, "run-wont-stop")) {
            AtomicLong endedAt = new AtomicLong();
            held.holding().scope().onCancel(() -> endedAt.set(System.nanoTime()));
            CompletableFuture<String> result = held.runAsync(scope -> ignoringEveryStop(release));

            db.expire(held.handle().name());
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> !failures.isEmpty());
            long failedAfterMs = (System.nanoTime() - endedAt.get()) / 1_000_000;

            assertTrue(held.handle().lost());
            assertTrue(failedAfterMs >= TIMINGS.stepDownGrace().toMillis() - 10,
                    "the work had the grace first; failed " + failedAfterMs + " ms after the loss");
            assertTrue(failures.getFirst().getMessage().contains(held.handle().name()), "the failure names the lease");
            await().during(TIMINGS.stepDownGrace()).atMost(TIMINGS.stepDownGrace().multipliedBy(3))
                    .until(() -> !result.isDone());
            release.countDown();
            assertEquals("stopped at last", result.get(), "Run returns once the work has");
            assertEquals(1, failures.size());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void workThatStopsWithinTheGraceAfterALossDoesNotFailTheProcess(TestDatabase db) throws Exception {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        try (LeaseFailure.Restore restore = LeaseFailure.setFail(failures::add);
                Held held = Held.claim(db, "run-stops")) {
            CompletableFuture<String> result = held.runAsync(scope -> {
                new CountDownLatch(1).await(); // ends with the interruption the loss brings
                return "never";
            });

            db.expire(held.handle().name());

            ExecutionException e = assertThrows(ExecutionException.class, result::get);
            assertInstanceOf(InterruptedException.class, e.getCause());
            assertTrue(held.handle().lost());
            await().during(TIMINGS.stepDownGrace().multipliedBy(2)).atMost(TIMINGS.stepDownGrace().multipliedBy(4))
                    .until(failures::isEmpty);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void shutdownIsNotALossSoWorkRunningPastTheGraceDoesNotFailTheProcess(TestDatabase db) throws Exception {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        try (LeaseFailure.Restore restore = LeaseFailure.setFail(failures::add);
                Held held = Held.claim(db, "run-shutdown")) {
            CompletableFuture<String> result = held.runAsync(scope -> ignoringEveryStop(release));

            held.parent().cancel("shutdown");

            await().during(TIMINGS.stepDownGrace().multipliedBy(3)).atMost(TIMINGS.stepDownGrace().multipliedBy(5))
                    .until(() -> failures.isEmpty() && !result.isDone());
            release.countDown();
            assertEquals("stopped at last", result.get(), "Run waits for the work after a shutdown");
            assertFalse(held.handle().lost());
            assertTrue(failures.isEmpty());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void lossFoundAfterAShutdownLeavesTheWorkTheGraceAndThenFailsTheProcess(TestDatabase db) throws Exception {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        try (LeaseFailure.Restore restore = LeaseFailure.setFail(failures::add);
                Held held = Held.claim(db, "run-shutdown-lost")) {
            CompletableFuture<String> result = held.runAsync(scope -> ignoringEveryStop(release));
            held.parent().cancel("shutdown");
            // Past the grace after the shutdown: only a loss can trip the hook from here on.
            await().during(TIMINGS.stepDownGrace().multipliedBy(2)).atMost(TIMINGS.stepDownGrace().multipliedBy(4))
                    .until(failures::isEmpty);

            db.expire(held.handle().name());
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> held.handle().lost());
            long lostAt = System.nanoTime();
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> !failures.isEmpty());
            long failedAfterMs = (System.nanoTime() - lostAt) / 1_000_000;

            assertTrue(failedAfterMs >= TIMINGS.stepDownGrace().toMillis() - 20,
                    "the work had the grace first; failed " + failedAfterMs + " ms after the loss was seen");
            assertFalse(result.isDone());
            release.countDown();
            assertEquals("stopped at last", result.get());
        }
    }
}
