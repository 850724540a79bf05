package dev.leasecron.app.scheduler;

import static dev.leasecron.app.logging.Events.*;

import java.time.Duration;
import org.slf4j.event.Level;

/**
 * What the scheduler tells about itself rather than about a job's instants: its threads beside the
 * path failing and going on, and a shutdown cutting rounds short. Logged as {@link RoundEvents} logs,
 * on the same logger.
 */
final class SchedulerEvents {
    private SchedulerEvents() {}

    static void sweepFailed(Duration retry, String error) {
        RoundEvents.LOG.atLevel(Level.WARN).addKeyValue("event", RERUN_SWEEP_FAILED).addKeyValue("error", error)
                .log("rerun sweep failed, trying again in {}: {}", retry, error);
    }

    static void runRequestsFailed(Duration retry, String error) {
        RoundEvents.LOG.atLevel(Level.WARN).addKeyValue("event", RUN_REQUESTS_FAILED).addKeyValue("error", error)
                .log("look for run requests failed, trying again in {}: {}", retry, error);
    }

    static void suspensionsUnread(Duration retry, String error) {
        RoundEvents.LOG.atLevel(Level.WARN).addKeyValue("event", DATABASE_UNAVAILABLE).addKeyValue("error", error)
                .log("could not read the jobs' suspensions, keeping the last ones read and trying again every {}: {}",
                        retry, error);
    }

    static void dispatcherFailed(RuntimeException e) {
        RoundEvents.LOG.atLevel(Level.ERROR).addKeyValue("event", DISPATCHER_FAILED).setCause(e)
                .log("the dispatcher failed, going on after the retry interval: {}", e.toString());
    }

    static void cuttingShort(int rounds, Duration grace) {
        RoundEvents.LOG.atLevel(Level.WARN).addKeyValue("event", DAEMON_CUTTING_SHORT).addKeyValue("rounds", rounds)
                .log("{} round(s) still running after the shutdown grace of {}: cutting them short", rounds, grace);
    }
}
