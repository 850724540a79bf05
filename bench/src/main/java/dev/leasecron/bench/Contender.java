package dev.leasecron.bench;

import javax.sql.DataSource;

/**
 * One scheduler under test: M no-op jobs due every {@code periodSeconds} seconds, on the second
 * (so all M are due on the same instant), run by R replicas, each a process of its own ({@link Replica})
 * over a pool of its own.
 */
interface Contender {
    String name();

    /** Drops and creates this scheduler's tables, as its documentation gives them. */
    void prepareSchema(DataSource admin) throws Exception;

    /**
     * Starts this process's replica, number {@code replica} of the cluster, over {@code pool}; it reports
     * to {@code recorder} when a task body starts.
     */
    void start(DataSource pool, int replica, int jobs, int periodSeconds, Recorder recorder) throws Exception;

    /** Stops the replica, waiting a little for running tasks. */
    void stop() throws Exception;

    /** How the contender is set up, for the results file. */
    String settings();

    static Contender named(String name) {
        return switch (name) {
            case LeasecronContender.NAME -> new LeasecronContender();
            case "shedlock" -> new ShedLockContender();
            case "db-scheduler" -> new DbSchedulerContender(DbSchedulerContender.DEFAULT_POLLING);
            case "db-scheduler-100ms" -> new DbSchedulerContender(java.time.Duration.ofMillis(100));
            case "quartz" -> new QuartzContender();
            default -> throw new IllegalArgumentException("unknown scheduler " + name
                    + " (leasecron, shedlock, db-scheduler, db-scheduler-100ms, quartz)");
        };
    }
}
