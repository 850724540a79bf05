package dev.leasecron.faults.harness;

import dev.leasecron.faults.check.Verdict;
import java.nio.file.Path;
import java.util.Map;

/**
 * One seed's outcome.
 *
 * @param runDir where its logs, configs and fault journal were kept; null when deleted (a clean run)
 * @param failoverResumeMs how long after a failover's promotion the first later instant was claimed;
 *     -1 without a failover, or when none was claimed in time
 */
record RunResult(String db, long seed, Map<FaultKind, Integer> injected, Verdict verdict, Path runDir,
        long failoverResumeMs) {}
