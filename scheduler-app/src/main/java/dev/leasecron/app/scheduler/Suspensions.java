package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.Suspension;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * This replica's view of the operators' suspensions of its jobs: one statement every renew interval
 * reads them all, and the rounds look at the snapshot it leaves, never at the database. A suspension
 * is thus honoured here within one renew interval of its writing; a claim won just before that runs.
 *
 * <p>A job suspended at one look and not at the next was resumed: the {@link ResumeCatchUp} hears of it.
 * While the database does not answer, the last snapshot stands: a replica that lost sight of the
 * table must not take that for every job resumed. The claims fail meanwhile anyway.
 */
final class Suspensions {
    private final Leases leases;
    private final Supplier<Collection<String>> names;
    private final LeaseScope scope;
    private final Duration every;
    private final Consumer<Collection<String>> resumed;
    /** By lease name; replaced whole by each read. */
    private volatile Map<String, Suspension> snapshot = Map.of();
    /** Whether the last read failed, so a long outage is logged once, not at every read. */
    private boolean failing;

    /**
     * @param names the lease names of this replica's jobs, read at each look
     * @param scope the looks end with it
     * @param resumed told of the jobs (lease names) suspended at the previous look and no longer, on the
     *     looking thread: it must not block
     */
    Suspensions(Leases leases, Supplier<Collection<String>> names, LeaseScope scope, Consumer<Collection<String>> resumed) {
        this.leases = leases;
        this.resumed = resumed;
        this.names = names;
        this.scope = scope;
        this.every = leases.timings().renewInterval();
    }

    void start() {
        Thread.ofVirtual().name("suspensions").start(this::run);
    }

    private void run() {
        try {
            while (!scope.await(every)) {
                read();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads the suspensions of the jobs now; called once before the first claim, then every renew interval. */
    void read() {
        Collection<String> jobs = names.get();
        Map<String, Suspension> before = snapshot;
        Map<String, Suspension> now;
        try {
            now = jobs.isEmpty() ? Map.of() : Map.copyOf(leases.controls().suspensions(jobs));
            snapshot = now;
            failing = false;
        } catch (LeaseDatabaseException e) {
            if (!failing) {
                SchedulerEvents.suspensionsUnread(every, e.getMessage());
            }
            failing = true;
            return;
        }
        // A job gone from the config is not resumed: its suspension is simply no longer read.
        List<String> ended = before.keySet().stream().filter(n -> !now.containsKey(n) && jobs.contains(n)).toList();
        if (!ended.isEmpty()) {
            resumed.accept(ended);
        }
    }

    /** The suspension of {@code job} as last read; empty when it runs. */
    Optional<Suspension> of(ScheduledJob job) {
        return Optional.ofNullable(snapshot.get(job.leaseName()));
    }
}
