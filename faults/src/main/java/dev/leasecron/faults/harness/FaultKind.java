package dev.leasecron.faults.harness;

/** The faults a schedule is made of. */
enum FaultKind {
    /** kill -9 of a replica while it holds a round's lease, then a new process of it. */
    KILL_HOLDER("kill9"),
    /** SIGSTOP of a holder for longer than the lease, then SIGCONT. */
    STOP_HOLDER("stop"),
    /** The database server stopped and started again. */
    DB_RESTART("db_restart"),
    /** The proxy holds every byte for a while: a stalled database. */
    DB_STALL("db_stall"),
    /** The proxy cuts every open connection. */
    DB_DROP("db_drop"),
    /** A replica restarted with its process clock an hour ahead or behind. */
    CLOCK_SKEW("skew"),
    /** SIGTERM and restart of every replica, one after another: a rolling deploy. */
    ROLLING_RESTART("rolling"),
    /**
     * SIGKILL of the primary's processes mid-round and its standby promoted a while later, on a
     * {@link ReplicatedPostgres} only; once per run, since the promoted primary has no standby. Last,
     * so that the plans of the other servers, drawn from the kinds before it, stay what they were.
     */
    FAILOVER("failover");

    private final String label;

    FaultKind(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }
}
