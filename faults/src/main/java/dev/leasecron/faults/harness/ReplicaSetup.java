package dev.leasecron.faults.harness;

import java.nio.file.Path;

/**
 * What every replica of a run shares: the JVM, the daemon's jar, the plugins folder holding the
 * probe, the run folder (configs and logs) and the protocol's timings.
 */
record ReplicaSetup(Path java, Path jar, Path plugins, Path runDir, Timings timings) {

    Path config(int index) {
        return runDir.resolve("r" + index + ".yaml");
    }

    Path logFile(String process) {
        return runDir.resolve(process + ".jsonl");
    }
}
