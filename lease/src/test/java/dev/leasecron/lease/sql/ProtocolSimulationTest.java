package dev.leasecron.lease.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the protocol simulation over many seeds: the decisions as specified keep every promise; the
 * same runs with renewals that ignore the local deadline break one, which shows the checks can fail.
 * Seeds are {@code 1..N}; a failure names its seed, and {@code new ProtocolSimulation(seed, logic)}
 * replays it exactly. {@code -Dleasecron.sim.seeds=N} runs more.
 */
class ProtocolSimulationTest {
    private static final int SEEDS = Integer.getInteger("leasecron.sim.seeds", 100);
    private static final Duration LENGTH = Duration.ofSeconds(60);

    @Test
    void theSpecifiedDecisionsKeepEveryPromiseUnderPausesCutOffsAndCrashes() throws Exception {
        List<String> violations = new ArrayList<>();
        int rounds = 0;
        int reruns = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            SimOutcome o = new ProtocolSimulation(seed, ProtocolSimulation.Logic.AS_SPECIFIED).run(3, LENGTH);
            violations.addAll(o.violations());
            rounds += o.rounds();
            reruns += o.reruns();
        }
        assertEquals(List.of(), violations);
        assertTrue(reruns > 0, "the faults must cut rounds short, or the run proves nothing: " + rounds + " rounds");
    }

    @Test
    void renewalsWithoutTheLocalDeadlineCommitUnderAStaleTerm() throws Exception {
        List<String> violations = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS && violations.isEmpty(); seed++) {
            violations.addAll(new ProtocolSimulation(seed, ProtocolSimulation.Logic.NO_LOCAL_DEADLINE)
                    .run(3, LENGTH).violations());
        }
        assertFalse(violations.isEmpty(), "the broken logic went unnoticed over " + SEEDS + " seeds");
        assertTrue(violations.getFirst().contains("committed after term"), violations.getFirst());
    }

    @Test
    void aSeedReplaysExactly() throws Exception {
        SimOutcome first = new ProtocolSimulation(42, ProtocolSimulation.Logic.NO_LOCAL_DEADLINE).run(3, LENGTH);
        SimOutcome again = new ProtocolSimulation(42, ProtocolSimulation.Logic.NO_LOCAL_DEADLINE).run(3, LENGTH);
        assertEquals(first, again);
    }
}
