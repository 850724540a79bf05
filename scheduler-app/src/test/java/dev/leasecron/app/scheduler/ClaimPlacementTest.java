package dev.leasecron.app.scheduler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClaimPlacementTest {
    @Test
    void theLastWinnerAndAFirstClaimGoOutAtTheInstantWhateverTheShare() {
        assertFalse(ClaimPlacement.putOff(false, 1000, 1000, 3, 0.99));
    }

    @Test
    void theTallyFollowsEachJobsLastClaimAndForgetsAJobStopped() {
        ClaimPlacement placement = new ClaimPlacement();
        JobState a = new JobState(null, null, 0);
        JobState b = new JobState(null, null, 1);
        placement.record(a, JobState.LastClaim.WON);
        placement.record(b, JobState.LastClaim.REFUSED);
        placement.record(a, JobState.LastClaim.WON);
        assertArrayEquals(new int[] {2, 1}, placement.tally());
        placement.record(b, JobState.LastClaim.WON);
        assertArrayEquals(new int[] {2, 2}, placement.tally());

        b.stopped = true;
        placement.record(b, JobState.LastClaim.NONE);
        placement.record(b, JobState.LastClaim.REFUSED); // the answer of a claim sent before it stopped
        assertArrayEquals(new int[] {1, 1}, placement.tally());
    }

    @Test
    void aReplicaAtOrAboveItsShareNeverContests() {
        assertEquals(0, ClaimPlacement.contestOdds(1000, 334, 3));
        assertEquals(0, ClaimPlacement.contestOdds(1000, 1000, 3));
        assertEquals(0, ClaimPlacement.contestOdds(1000, 1000, 1));
        assertTrue(ClaimPlacement.putOff(true, 1000, 334, 3, 0.0));
    }

    @Test
    void aReplicaRefusedBeforeTheCountSeesAnotherSharesWithOneMore() {
        assertEquals(0.5, ClaimPlacement.contestOdds(1000, 0, 1), 1e-9);
    }

    @Test
    void aReplicaShortOfItsShareContestsAboutAsManyJobsAsItIsShort() {
        // Of the 1,000 claims a replica with none is refused, a third contest: 333 of them.
        assertEquals(1000 / 3.0 / 1000, ClaimPlacement.contestOdds(1000, 0, 3), 1e-9);
        assertEquals((1000 / 3.0 - 300) / 700, ClaimPlacement.contestOdds(1000, 300, 3), 1e-9);
        assertFalse(ClaimPlacement.putOff(true, 1000, 0, 3, 0.3));
        assertTrue(ClaimPlacement.putOff(true, 1000, 0, 3, 0.34));
    }

    @Test
    void lessThanOneJobShortDoesNotContest() {
        assertEquals(0, ClaimPlacement.contestOdds(7, 2, 3), "2 of 7 is the even share, rounded down");
        assertEquals((7 / 3.0 - 1) / 6, ClaimPlacement.contestOdds(7, 1, 3), 1e-9);
        assertEquals(0, ClaimPlacement.contestOdds(2, 0, 3), "two jobs for three replicas: one stays without");
    }
}
