package dev.leasecron.app.scheduler;

import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.event.Level;

/**
 * The replicated scheduler: a loop per job on virtual threads (a cluster-wide job waiting for its
 * next instant holds no thread: thousands of jobs cost thousands of claims waiting in a map), one
 * rerun sweep, a census of the replicas sharing the jobs, and a shutdown that stops claiming at once,
 * lets running rounds end within a grace and cuts the rest short so a peer runs them again.
 */
public final class Scheduler {
    private final Leases leases;
    private final DueClock clock;
    private final RoundListener listener;
    private final InFlight inFlight = new InFlight();
    /** Ends when the replica stops claiming. */
    private final LeaseScope claiming = LeaseScope.root();
    /** Ends when the rounds still running after the shutdown grace are cut short. */
    private final LeaseScope rounds = LeaseScope.root();
    private final ReplicaCensus census;
    private final SharedStatements shared;
    private final RoundRunner roundRunner;
    private final LocalRounds localRounds;
    private final Map<String, JobLoop> loops = new LinkedHashMap<>();
    private volatile Map<String, ScheduledJob> clusterJobs = Map.of();
    /** False on a primary database that cannot carry leases: only jobs of every replica run. */
    private final boolean withLeases;

    public Scheduler(Leases leases, GuardedTransactions transactions, RoundListener listener) {
        this(leases, transactions, listener, true, true);
    }

    private Scheduler(Leases leases, GuardedTransactions transactions, RoundListener listener, boolean batched,
            boolean withLeases) {
        this.leases = leases;
        this.withLeases = withLeases;
        this.clock = withLeases ? new DueClock(leases) : DueClock.processClock(leases);
        this.listener = listener;
        this.census = new ReplicaCensus(leases, () -> clusterJobs.keySet(), claiming);
        this.shared = batched ? SharedStatements.batched(leases, clock, claiming, census::replicas)
                : SharedStatements.singleRow(leases, clock, claiming, census::replicas);
        this.roundRunner = new RoundRunner(leases, shared, transactions, rounds, clock, listener, inFlight);
        this.localRounds = new LocalRounds(rounds, transactions, leases.instance(), listener, inFlight);
    }

    /**
     * A scheduler whose every claim, finish and release is a single-row statement of its own instead of
     * a batch shared with the rounds due or ending with it: what a round cost before its statements
     * were shared, for a benchmark to set beside the default. Behaves the same otherwise.
     */
    public static Scheduler withSingleRowStatements(Leases leases, GuardedTransactions transactions,
            RoundListener listener) {
        return new Scheduler(leases, transactions, listener, false, true);
    }

    /**
     * A scheduler over a primary database that cannot carry leases (ClickHouse, see
     * {@link Leases#initialize()}): it runs jobs of {@code scope: replica} only, which need no lease,
     * on every replica, and refuses cluster-wide ones. Having no lease statement to read the
     * database's clock with, it decides when an instant is due by this process's clock.
     */
    public static Scheduler withoutLeases(Leases leases, GuardedTransactions transactions, RoundListener listener) {
        return new Scheduler(leases, transactions, listener, true, false);
    }

    /**
     * Starts the jobs, the rerun sweep and the census of the replicas sharing the jobs.
     *
     * @throws IllegalArgumentException a job is cluster-wide on a scheduler {@link #withoutLeases}
     */
    public synchronized void start(Collection<ScheduledJob> jobs) {
        apply(jobs);
        if (!withLeases) {
            return; // no lease to count replicas by, nor an instant to run again
        }
        census.start();
        RerunSweep sweep = new RerunSweep(leases, roundRunner, () -> clusterJobs, claiming);
        Thread.ofVirtual().name("rerun-sweep").start(sweep::run);
    }

    /**
     * Makes {@code jobs} the running set: new jobs start, removed jobs stop claiming (a round of theirs
     * already running ends on its own terms), changed jobs restart with their new definition.
     *
     * @throws IllegalArgumentException a job is cluster-wide on a scheduler {@link #withoutLeases};
     *     nothing changed
     */
    public synchronized void apply(Collection<ScheduledJob> jobs) {
        if (claiming.isCancelled()) {
            return;
        }
        if (!withLeases) {
            List<String> clusterWide = jobs.stream().filter(ScheduledJob::clusterWide).map(ScheduledJob::name).toList();
            if (!clusterWide.isEmpty()) {
                throw new IllegalArgumentException("the primary database cannot carry leases, so only jobs of scope:"
                        + " replica run; cluster-wide: " + String.join(", ", clusterWide));
            }
        }
        Map<String, ScheduledJob> wanted = jobs.stream()
                .collect(Collectors.toMap(ScheduledJob::name, j -> j, (a, b) -> a, LinkedHashMap::new));
        loops.entrySet().removeIf(e -> {
            ScheduledJob next = wanted.get(e.getKey());
            if (next != null && next.equals(e.getValue().job())) {
                return false;
            }
            e.getValue().stop();
            return true;
        });
        for (ScheduledJob job : wanted.values()) {
            if (!loops.containsKey(job.name())) {
                JobLoop loop = new JobLoop(job, leases, shared, clock, roundRunner, localRounds, claiming.child(), listener);
                loops.put(job.name(), loop);
                loop.start();
            }
        }
        Map<String, ScheduledJob> byLease = new HashMap<>();
        wanted.values().stream().filter(ScheduledJob::clusterWide).forEach(j -> byLease.put(j.leaseName(), j));
        clusterJobs = Map.copyOf(byLease);
    }

    /** The jobs running now. */
    public synchronized List<ScheduledJob> jobs() {
        return loops.values().stream().map(JobLoop::job).toList();
    }

    /** Rounds running on this replica now. */
    public int roundsRunning() {
        return inFlight.running();
    }

    /**
     * Stops claiming at once, waits up to {@code grace} for the running rounds to end, then cuts the
     * rest short (each gives its lease back, so a peer runs its instant again at once) and waits for
     * them to wind down, up to {@code windDown} more.
     *
     * @return true when no round is left running
     */
    public boolean shutdown(Duration grace, Duration windDown) throws InterruptedException {
        claiming.cancel("shutting down");
        if (inFlight.awaitNone(grace)) {
            return true;
        }
        RoundLog.LOG.atLevel(Level.WARN).addKeyValue("event", "daemon.cutting_short")
                .addKeyValue("rounds", inFlight.running())
                .log("{} round(s) still running after the shutdown grace of {}: cutting them short", inFlight.running(), grace);
        rounds.cancel("shutdown: the grace of " + grace + " ran out");
        return inFlight.awaitNone(windDown);
    }
}
