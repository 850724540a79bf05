package dev.leasecron.faults.harness;

/**
 * One fault of a schedule.
 *
 * @param atMs when it starts, from the start of the fault phase (later when the previous fault took longer)
 * @param kind what it does
 * @param replica the replica it targets when no holder decides (skew); ignored otherwise
 * @param durationMs how long a stall or SIGSTOP lasts, or how long a killed replica stays down
 * @param ahead for a clock skew: an hour ahead (true) or behind; for a failover of a synchronous pair,
 *     whether the standby is held back first
 * @param jitterMs how long to wait after finding a holder before striking, so faults land at
 *     different points of a round
 */
record Fault(long atMs, FaultKind kind, int replica, long durationMs, boolean ahead, long jitterMs) {
    @Override
    public String toString() {
        return "+" + atMs + "ms " + kind.label() + " r" + replica + " " + durationMs + "ms"
                + (kind == FaultKind.CLOCK_SKEW ? (ahead ? " +1h" : " -1h") : "")
                + (kind == FaultKind.FAILOVER && ahead ? " hold-back" : "") + " jitter " + jitterMs + "ms";
    }
}
