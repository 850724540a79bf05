package dev.leasecron.lease.sql;

/**
 * One replica in the protocol simulation, as the scheduler's decisions see it: the job loop's cursor,
 * the round it holds (if any) and the faults it is under. Mutable; driven by {@link ProtocolSimulation}.
 */
final class SimReplica {
    final String instance;
    /** The last instant the job loop handled. */
    long cursor;
    long nextSweepMs;
    /** Frozen (SIGSTOP, a long GC pause) until then: not a single decision is taken. */
    long pausedUntilMs;
    /** Cut off from the database until then: every statement fails. */
    long netDownUntilMs;
    /** Dead until then; a new process starts afterwards, with no round. */
    long deadUntilMs;
    Round round;

    SimReplica(String instance) {
        this.instance = instance;
    }

    /**
     * A round held under a lease: the probe transaction opened (and verified) at its start and commits
     * when the work ends.
     */
    static final class Round {
        final String holder;
        final long term;
        final long slotMs;
        final boolean rerun;
        long lastGoodRenewStartMs;
        long nextRenewMs;
        final long workEndsMs;

        Round(String holder, long term, long slotMs, boolean rerun, long startedMs, long renewMs, long workMs) {
            this.holder = holder;
            this.term = term;
            this.slotMs = slotMs;
            this.rerun = rerun;
            this.lastGoodRenewStartMs = startedMs;
            this.nextRenewMs = startedMs + renewMs;
            this.workEndsMs = startedMs + workMs;
        }
    }
}
