package dev.leasecron.faults.harness;

import java.time.Duration;

/**
 * The protocol's timings scaled down for the harness (the daemon's hidden {@code --lease-timings-ms}),
 * so that a run plays many losses and reruns in a few minutes; their proportions are the spec's.
 */
record Timings(long leaseMs, long renewMs, long deadlineMs, long graceMs) {
    /** 15 s / 2 s / 10 s / 5 s divided by five. */
    static final Timings HARNESS = new Timings(3000, 400, 2000, 1000);

    String asArgument() {
        return leaseMs + "," + renewMs + "," + deadlineMs + "," + graceMs;
    }

    /** The daemon bounds one lease statement to half the local deadline, rounded up to a second. */
    Duration statementTimeout() {
        return Duration.ofSeconds(Math.ceilDiv(deadlineMs / 2, 1000));
    }
}
