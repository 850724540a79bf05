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
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The replicated scheduler: one {@link Dispatcher} that keeps the instants of every job, one rerun
 * sweep, one look for requests to run a job now ({@link RunRequests}), a census of the replicas
 * sharing the jobs, and a shutdown that stops claiming at once, lets running rounds (manual ones
 * included) end within a grace and cuts the rest short so a peer runs them again. The package
 * documentation walks an instant through it.
 */
public final class Scheduler {
    private final Leases leases;
    private final SchedulerSettings settings;
    private final InFlight inFlight = new InFlight();
    /** Ends when the replica stops claiming. */
    private final LeaseScope claiming = LeaseScope.root();
    /** Ends when the rounds still running after the shutdown grace are cut short. */
    private final LeaseScope rounds = LeaseScope.root();
    private final ReplicaCensus census;
    private final Suspensions suspensions;
    private final ResumeCatchUp resumeCatchUp;
    private final RoundRunner roundRunner;
    private final ManualRoundRunner manualRounds;
    private final Dispatcher dispatcher;
    private final Map<String, JobState> jobs = new LinkedHashMap<>();
    private volatile Map<String, ScheduledJob> clusterJobs = Map.of();
    /** The lease names of every job, of every replica's too: what the suspensions are read for. */
    private volatile List<String> leaseNames = List.of();
    /** False on a primary database that cannot carry leases: only jobs of every replica run. */
    private final boolean withLeases;

    /** A scheduler with the {@linkplain SchedulerSettings#DEFAULTS default settings}. */
    public Scheduler(Leases leases, GuardedTransactions transactions, RoundListener listener) {
        this(leases, transactions, listener, SchedulerSettings.DEFAULTS);
    }

    public Scheduler(Leases leases, GuardedTransactions transactions, RoundListener listener, SchedulerSettings settings) {
        this(leases, transactions, listener, settings, true);
    }

    private Scheduler(Leases leases, GuardedTransactions transactions, RoundListener listener, SchedulerSettings settings,
            boolean withLeases) {
        this.leases = leases;
        this.settings = settings;
        this.withLeases = withLeases;
        DueClock clock = withLeases ? new DueClock(leases) : DueClock.processClock(leases);
        RoundEvents events = new RoundEvents(listener,
                withLeases ? new SpanHistory(leases, settings.endingWindow()) : SpanHistory.NONE);
        this.census = new ReplicaCensus(leases, () -> clusterJobs.keySet(), claiming, settings);
        this.suspensions = new Suspensions(leases, () -> leaseNames, claiming, this::resumed);
        RoundEnds ends = new RoundEnds(leases, settings.endingWindow());
        SuspendedInstants suspended = new SuspendedInstants(suspensions, ends, clock, events);
        this.roundRunner = new RoundRunner(leases, ends, transactions, rounds, clock, events, suspended);
        this.resumeCatchUp = new ResumeCatchUp(leases, roundRunner, inFlight, () -> clusterJobs, settings.catchUpWindow(), claiming,
                events);
        this.manualRounds = new ManualRoundRunner(roundRunner, inFlight, clock, events,
                settings.putOff().plus(leases.retryInterval().multipliedBy(2)));
        LocalRounds local = new LocalRounds(rounds, transactions, leases.instance(), clock, events);
        CatchUp catchUp = new CatchUp(leases, clock, settings.catchUpWindow(), events);
        this.dispatcher = new Dispatcher(new Scheduling(leases, clock, claiming, settings, events, catchUp, roundRunner,
                local, census::replicas, suspended, inFlight));
    }

    /**
     * A scheduler over a primary database that cannot carry leases (ClickHouse, see
     * {@link Leases#initialize()}): it runs jobs of {@code scope: replica} only, which need no lease,
     * on every replica, and refuses cluster-wide ones. Having no lease statement to read the
     * database's clock with, it decides when an instant is due by this process's clock.
     */
    public static Scheduler withoutLeases(Leases leases, GuardedTransactions transactions, RoundListener listener) {
        return new Scheduler(leases, transactions, listener, SchedulerSettings.DEFAULTS, false);
    }

    /**
     * Starts the jobs, the rerun sweep, the census of the replicas sharing the jobs and the looks at
     * the jobs' suspensions. The first look is taken before the first claim, so a job suspended while
     * no replica ran is not run by a replica starting.
     *
     * @throws IllegalArgumentException a job is cluster-wide on a scheduler {@link #withoutLeases}
     */
    public synchronized void start(Collection<ScheduledJob> jobs) {
        apply(jobs);
        if (withLeases) {
            suspensions.read();
        }
        dispatcher.start();
        if (!withLeases) {
            return; // no lease to count replicas by, nor an instant to run again, nor a suspension to read
        }
        suspensions.start();
        census.start();
        RerunSweep sweep = new RerunSweep(leases, roundRunner, inFlight, () -> clusterJobs, claiming, settings.sweepsPerRetryInterval());
        Thread.ofVirtual().name("rerun-sweep").start(sweep::run);
        RunRequests requests = new RunRequests(leases, manualRounds, () -> clusterJobs, claiming);
        Thread.ofVirtual().name("run-requests").start(requests::run);
    }

    /**
     * Makes {@code jobs} the running set: new jobs start, removed jobs stop claiming (a round of theirs
     * already running ends on its own terms), changed jobs restart with their new definition.
     *
     * @throws IllegalArgumentException a job is cluster-wide on a scheduler {@link #withoutLeases};
     *     nothing changed
     */
    public synchronized void apply(Collection<ScheduledJob> wanted) {
        if (claiming.isCancelled()) {
            return;
        }
        if (!withLeases) {
            List<String> clusterWide = wanted.stream().filter(ScheduledJob::clusterWide).map(ScheduledJob::name).toList();
            if (!clusterWide.isEmpty()) {
                throw new IllegalArgumentException("the primary database cannot carry leases, so only jobs of scope:"
                        + " replica run; cluster-wide: " + String.join(", ", clusterWide));
            }
        }
        Map<String, ScheduledJob> byName = wanted.stream()
                .collect(Collectors.toMap(ScheduledJob::name, j -> j, (a, b) -> a, LinkedHashMap::new));
        jobs.entrySet().removeIf(e -> {
            if (e.getValue().job.equals(byName.get(e.getKey()))) {
                return false;
            }
            dispatcher.remove(e.getValue());
            return true;
        });
        byName.values().stream().filter(job -> !jobs.containsKey(job.name()))
                .forEach(job -> jobs.put(job.name(), dispatcher.add(job)));
        Map<String, ScheduledJob> byLease = new HashMap<>();
        byName.values().stream().filter(ScheduledJob::clusterWide).forEach(j -> byLease.put(j.leaseName(), j));
        clusterJobs = Map.copyOf(byLease);
        leaseNames = byName.values().stream().map(ScheduledJob::leaseName).toList();
    }

    /**
     * Jobs were resumed: the catch-up on resume runs rounds, which look at the suspensions, so it is
     * built after them and told of resumes through here.
     */
    private void resumed(Collection<String> leaseNames) {
        resumeCatchUp.resumed(leaseNames);
    }

    /** The tuning this scheduler runs with. */
    public SchedulerSettings settings() {
        return settings;
    }

    /** The jobs running now. */
    public synchronized List<ScheduledJob> jobs() {
        return jobs.values().stream().map(s -> s.job).toList();
    }

    /**
     * Why this scheduler is stuck, for the liveness probe: its dispatcher has not gone round its loop
     * for {@code within} (it does at least every 30 s while it runs), or never started. Empty when
     * healthy, and once it stopped claiming for a shutdown.
     */
    public Optional<String> stuck(Duration within) {
        if (claiming.isCancelled()) {
            return Optional.empty();
        }
        long heartbeat = dispatcher.heartbeat();
        if (heartbeat == 0) {
            return Optional.of("the dispatcher has not started");
        }
        Duration since = Duration.ofNanos(System.nanoTime() - heartbeat);
        return since.compareTo(within) > 0
                ? Optional.of("the dispatcher has not gone round its loop for " + since.toSeconds() + " s")
                : Optional.empty();
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
        SchedulerEvents.cuttingShort(inFlight.running(), grace);
        rounds.cancel("shutdown: the grace of " + grace + " ran out");
        return inFlight.awaitNone(windDown);
    }
}
