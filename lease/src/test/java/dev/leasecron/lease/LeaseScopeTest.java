package dev.leasecron.lease;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LeaseScopeTest {

    @Test
    void aChildEndsWithItsParentAndItsReason() {
        LeaseScope parent = LeaseScope.root();
        LeaseScope child = parent.child();

        parent.cancel("shutting down");

        assertTrue(child.isCancelled());
        assertSame(parent.reason(), child.reason());
    }

    @Test
    void aDetachedChildNoLongerEndsWithItsParentAndKeepsItsOwnState() {
        LeaseScope parent = LeaseScope.root();
        LeaseScope done = parent.child();
        LeaseScope ended = parent.child();
        ended.cancel("round timed out");

        done.detach();
        ended.detach();
        parent.cancel("shutting down");

        assertFalse(done.isCancelled());
        assertEquals("round timed out", ended.reason().getMessage());
    }

    @Test
    void aParentDoesNotHoldOnToChildrenDetachedOrEnded() {
        // A replica's scope of all its rounds lives for days: each round's scope is made under it.
        LeaseScope parent = LeaseScope.root();
        List<WeakReference<LeaseScope>> children = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            LeaseScope child = parent.child();
            LeaseScope grandchild = child.child();
            if (i % 2 == 0) {
                child.detach();
            } else {
                child.cancel("done");
            }
            children.add(new WeakReference<>(child));
            children.add(new WeakReference<>(grandchild));
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> {
            System.gc();
            return children.stream().allMatch(c -> c.get() == null);
        });
        assertFalse(parent.isCancelled());
    }

    @Test
    void theSameCallbackRegisteredTwiceRunsTwiceAndUnregistersOnce() throws Exception {
        LeaseScope scope = LeaseScope.root();
        AtomicInteger runs = new AtomicInteger();
        Runnable callback = runs::incrementAndGet;
        AutoCloseable first = scope.onCancel(callback);
        scope.onCancel(callback);

        first.close();
        scope.cancel(new CancellationException("over"));

        assertEquals(1, runs.get());
    }

    @Test
    void callbacksRunInTheOrderRegisteredWhicheverWereTakenBack() throws Exception {
        LeaseScope scope = LeaseScope.root();
        List<String> ran = new ArrayList<>();
        AutoCloseable a = scope.onCancel(() -> ran.add("a"));
        scope.onCancel(() -> ran.add("b"));
        a.close();
        scope.onCancel(() -> ran.add("c"));
        AutoCloseable d = scope.onCancel(() -> ran.add("d"));
        scope.onCancel(() -> ran.add("e"));
        d.close();

        scope.cancel("stop");

        assertEquals(List.of("b", "c", "e"), ran);
    }

    @Test
    void awaitReturnsOnceEndedAndTimesOutOtherwise() throws InterruptedException {
        LeaseScope scope = LeaseScope.root();
        assertFalse(scope.await(Duration.ofMillis(20)));
        Thread.ofVirtual().start(() -> scope.cancel("stop"));

        assertTrue(scope.await(Duration.ofSeconds(10)));
        assertTrue(scope.await(Duration.ZERO), "an ended scope needs no wait");
    }
}
