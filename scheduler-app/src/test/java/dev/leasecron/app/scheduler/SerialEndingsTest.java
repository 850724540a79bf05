package dev.leasecron.app.scheduler;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SerialEndingsTest {

    @Test
    void runsEveryTaskOnceInTheOrderHandedInOneAtATime() {
        SerialEndings endings = new SerialEndings("endings-test");
        List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 2_000; i++) {
            int task = i;
            endings.execute(() -> {
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                threads.add(Thread.currentThread().getName());
                ran.add(task);
                running.decrementAndGet();
            });
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == 2_000);
        for (int i = 0; i < 2_000; i++) {
            assertEquals(i, ran.get(i), "in the order handed in");
        }
        assertEquals(1, mostAtOnce.get(), "one at a time");
        assertEquals(Set.of("endings-test"), threads);
    }

    @Test
    void aTaskThatThrowsLeavesTheOthersToRunAndItsFailureGoesWhereAThreadsWould() {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        List<Throwable> reported = Collections.synchronizedList(new ArrayList<>());
        Thread.setDefaultUncaughtExceptionHandler((thread, failure) -> reported.add(failure));
        try {
            SerialEndings endings = new SerialEndings("endings-test");
            AtomicInteger ran = new AtomicInteger();
            endings.execute(() -> {
                throw new IllegalStateException("a failing ending");
            });
            endings.execute(ran::incrementAndGet);

            // Awaitility would take the failure over for the waiting thread while it waits.
            await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10)).until(() -> ran.get() == 1);
            endings.execute(ran::incrementAndGet);
            await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10)).until(() -> ran.get() == 2);
            assertEquals(List.of("a failing ending"), reported.stream().map(Throwable::getMessage).toList());
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    @Test
    void tasksHandedInFromManyThreadsWhileItRunsAreNotLeftBehind() throws InterruptedException {
        SerialEndings endings = new SerialEndings("endings-test");
        AtomicInteger ran = new AtomicInteger();
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            senders.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 10_000; i++) {
                    endings.execute(ran::incrementAndGet);
                }
            }));
        }
        for (Thread s : senders) {
            s.join();
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> ran.get() == 80_000);
    }
}
