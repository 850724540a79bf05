package dev.leasecron.faults.harness;

import dev.leasecron.faults.check.Verdict;
import java.nio.file.Path;
import java.util.Map;

/**
 * One seed's outcome.
 *
 * @param runDir where its logs, configs and fault journal were kept; null when deleted (a clean run)
 */
record RunResult(String db, long seed, Map<FaultKind, Integer> injected, Verdict verdict, Path runDir) {}
