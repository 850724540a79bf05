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
 * plays every kind once in a seeded order, then random kinds until the phase is over; a failover
 * only on a replicated server, and once.
 */
record FaultPlan(long seed, List<Fault> faults) {

    /** How long after the primary's death its standby is promoted: an operator's failover delay. */
    static final long PROMOTE_AFTER_MS = 2000;

    /**
     * @param failover whether the server is a {@link ReplicatedPostgres}: its plan has one
     *     {@link FaultKind#FAILOVER}, as one of its first three faults (a short phase plays only the
     *     first few of the seeded order), and never among the random kinds after the order
     */
    static FaultPlan generate(long seed, long phaseMs, int replicas, Timings timings, boolean failover) {
        Random random = new Random(seed);
        List<FaultKind> repeatable = Arrays.stream(FaultKind.values()).filter(k -> k != FaultKind.FAILOVER).toList();
        List<FaultKind> order = new ArrayList<>(repeatable);
        Collections.shuffle(order, random);
        if (failover) {
            order.add(random.nextInt(3), FaultKind.FAILOVER);
        }
        List<Fault> faults = new ArrayList<>();
        long at = 1000;
        while (at < phaseMs) {
            FaultKind kind = faults.size() < order.size() ? order.get(faults.size())
                    : repeatable.get(random.nextInt(repeatable.size()));
            long duration = switch (kind) {
                // Past the lease, so the name is claimed elsewhere while the holder sleeps.
                case STOP_HOLDER -> timings.leaseMs() + 300 + random.nextInt(1500);
                // Both sides of the local deadline: some stalls cost the holder its lease, some do not.
                case DB_STALL -> 300 + random.nextInt((int) (timings.deadlineMs() + 800));
                case KILL_HOLDER -> 500 + random.nextInt(2000);
                case FAILOVER -> PROMOTE_AFTER_MS;
                default -> 0;
            };
            faults.add(new Fault(at, kind, 1 + random.nextInt(replicas), duration, random.nextBoolean(),
                    random.nextInt(400)));
            at += duration + 1500 + random.nextInt(2500);
        }
        return new FaultPlan(seed, List.copyOf(faults));
    }
}
