package dev.leasecron.faults.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A seeded fault schedule: the same seed gives the same faults, in the same order, at the same
 * offsets, with the same targets and durations. (The interleavings of the processes they hit are
 * the operating system's, so a replay reproduces the schedule, not every thread's timing.) Each seed
 * plays every kind once in a seeded order, then random kinds until the phase is over.
 */
record FaultPlan(long seed, List<Fault> faults) {

    static FaultPlan generate(long seed, long phaseMs, int replicas, Timings timings) {
        Random random = new Random(seed);
        List<FaultKind> order = new ArrayList<>(Arrays.asList(FaultKind.values()));
        Collections.shuffle(order, random);
        List<Fault> faults = new ArrayList<>();
        long at = 1000;
        while (at < phaseMs) {
            FaultKind kind = faults.size() < order.size() ? order.get(faults.size())
                    : FaultKind.values()[random.nextInt(FaultKind.values().length)];
            long duration = switch (kind) {
                // Past the lease, so the name is claimed elsewhere while the holder sleeps.
                case STOP_HOLDER -> timings.leaseMs() + 300 + random.nextInt(1500);
                // Both sides of the local deadline: some stalls cost the holder its lease, some do not.
                case DB_STALL -> 300 + random.nextInt((int) (timings.deadlineMs() + 800));
                case KILL_HOLDER -> 500 + random.nextInt(2000);
                default -> 0;
            };
            faults.add(new Fault(at, kind, 1 + random.nextInt(replicas), duration, random.nextBoolean(),
                    random.nextInt(400)));
            at += duration + 1500 + random.nextInt(2500);
        }
        return new FaultPlan(seed, List.copyOf(faults));
    }
}
