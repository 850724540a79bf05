package dev.leasecron.app.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.LeaseScope;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What a shutdown waits for: every claim out and every round it won, with no gap between the two. */
class InFlightTest {
    private final InFlight inFlight = new InFlight();

    @Test
    void aRoundWonIsCountedBeforeItsClaimsCountEnds() throws Exception {
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicBoolean countedWhenAnswered = new AtomicBoolean();

        boolean sent = inFlight.claimAndStart(LeaseScope.root(), "test round", () -> {
            countedWhenAnswered.set(!awaitNone(Duration.ZERO));
            return Optional.of("won");
        }, won -> await(letGo));

        assertTrue(sent);
        assertTrue(countedWhenAnswered.get(), "the claim was counted while it was out");
        assertEquals(1, inFlight.running(), "the round, counted before its thread ran");
        assertFalse(awaitNone(Duration.ofMillis(50)), "a shutdown waits for the round");
        letGo.countDown();
        assertTrue(awaitNone(Duration.ofSeconds(10)));
        assertEquals(0, inFlight.running());
    }

    @Test
    void nothingIsClaimedOnceClaimingHasEnded() throws Exception {
        LeaseScope claiming = LeaseScope.root();
        claiming.cancel("shutting down");
        AtomicBoolean asked = new AtomicBoolean();

        boolean sent = inFlight.claimAndStart(claiming, "test round", () -> {
            asked.set(true);
            return Optional.of("won");
        }, won -> {});

        assertFalse(sent);
        assertFalse(asked.get(), "the claim was not sent");
        assertTrue(awaitNone(Duration.ZERO), "and is not counted");
    }

    @Test
    void aCountClosedTwiceEndsOnce() throws Exception {
        InFlight.Count first = inFlight.count();
        InFlight.Count second = inFlight.count();

        first.close();
        first.close();

        assertFalse(awaitNone(Duration.ZERO), "the second count still holds");
        second.close();
        assertTrue(awaitNone(Duration.ZERO));
    }

    private boolean awaitNone(Duration timeout) {
        try {
            return inFlight.awaitNone(timeout);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
