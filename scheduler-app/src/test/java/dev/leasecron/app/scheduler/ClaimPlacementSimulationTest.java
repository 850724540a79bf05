package dev.leasecron.app.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Replicas following {@link ClaimPlacement} over many instants, without a database: at each instant
 * every running replica claims every job, at the instant or put off; among the claims at the instant
 * one wins at random, and a job nobody claimed at the instant goes to one of the claims put off. Rounds
 * end before the next instant. Seeded, so a failure replays.
 */
class ClaimPlacementSimulationTest {
    private static final int JOBS = 300;

    /** One replica's view: how its last claim of each job went, and whether it runs. */
    private static final class SimReplica {
        final boolean[] claimed = new boolean[JOBS];
        final boolean[] won = new boolean[JOBS];
        boolean running = true;

        int known() {
            int n = 0;
            for (boolean c : claimed) {
                n += c ? 1 : 0;
            }
            return n;
        }

        int held() {
            int n = 0;
            for (int j = 0; j < JOBS; j++) {
                n += claimed[j] && won[j] ? 1 : 0;
            }
            return n;
        }
    }

    private final Random random = new Random(42);
    private final List<SimReplica> replicas = new ArrayList<>();
    /** Jobs claimed at the instant by more than one replica, at the last instant simulated. */
    private int contested;

    private void instant() {
        List<SimReplica> up = replicas.stream().filter(r -> r.running).toList();
        int count = up.size();
        int[] known = up.stream().mapToInt(SimReplica::known).toArray();
        int[] held = up.stream().mapToInt(SimReplica::held).toArray();
        contested = 0;
        for (int j = 0; j < JOBS; j++) {
            List<SimReplica> atInstant = new ArrayList<>();
            List<SimReplica> putOff = new ArrayList<>();
            for (int i = 0; i < up.size(); i++) {
                SimReplica r = up.get(i);
                boolean refusedLast = r.claimed[j] && !r.won[j];
                (ClaimPlacement.putOff(refusedLast, known[i], held[i], count, random.nextDouble()) ? putOff : atInstant).add(r);
            }
            contested += atInstant.size() > 1 ? 1 : 0;
            List<SimReplica> first = atInstant.isEmpty() ? putOff : atInstant;
            SimReplica winner = first.get(random.nextInt(first.size()));
            for (SimReplica r : up) {
                r.claimed[j] = true;
                r.won[j] = r == winner;
            }
        }
    }

    private void run(int instants) {
        IntStream.range(0, instants).forEach(i -> instant());
    }

    private int[] shares() {
        return replicas.stream().filter(r -> r.running).mapToInt(SimReplica::held).toArray();
    }

    /** Every running replica holds an even share, give or take a few jobs, and no claim contests a job. */
    private void assertSpread(String when) {
        int[] shares = shares();
        assertEquals(JOBS, Arrays.stream(shares).sum(), when + ": every job runs on one replica");
        int even = JOBS / shares.length;
        for (int share : shares) {
            assertTrue(Math.abs(share - even) <= 3, when + ": shares " + Arrays.toString(shares));
        }
        assertEquals(0, contested, when + ": claims at the instant meet on no job; shares " + Arrays.toString(shares));
    }

    @Test
    void threeReplicasStartedTogetherSpreadTheJobsEvenly() {
        IntStream.range(0, 3).forEach(i -> replicas.add(new SimReplica()));
        run(60);
        assertSpread("after 60 instants");
    }

    @Test
    void aReplicaJoiningLateGetsItsShareAndAReplicaLeavingHandsItsJobsOn() {
        replicas.add(new SimReplica());
        run(5);
        assertEquals(List.of(JOBS), Arrays.stream(shares()).boxed().toList(), "alone, it runs every job");

        replicas.add(new SimReplica());
        replicas.add(new SimReplica());
        run(60);
        assertSpread("after two replicas joined");

        replicas.get(0).running = false;
        run(1);
        assertEquals(JOBS, Arrays.stream(shares()).sum(), "the jobs of the replica gone run at the next instant");
        run(60);
        assertSpread("after the first replica left");
    }

    @Test
    void aPausedReplicaComingBackGetsItsShareAgain() {
        IntStream.range(0, 3).forEach(i -> replicas.add(new SimReplica()));
        run(60);
        replicas.get(1).running = false;
        run(10);
        assertSpread("while one pauses");

        replicas.get(1).running = true; // still believes it won what it held before the pause
        run(80);
        assertSpread("after the pause");
    }
}
