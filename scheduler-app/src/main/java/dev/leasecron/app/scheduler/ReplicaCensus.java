package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * How many replicas share this replica's jobs, as their lease rows tell it: the instances that claimed
 * one of the jobs' instants within the last {@link SchedulerSettings#censusRecent()}, this one
 * included, counted every {@link SchedulerSettings#censusEvery()} in one statement. A replica that
 * stopped drops out as the others claim its jobs, and at the latest once its instants are older than
 * that; jobs rarer than that count no replica. Until the first count, and while the database does not answer it, the last count stands (at
 * first: this replica alone).
 */
final class ReplicaCensus {
    private final Leases leases;
    private final Supplier<Collection<String>> names;
    private final LeaseScope scope;
    private final Duration every;
    private final Duration recent;
    private volatile int replicas = 1;

    /**
     * @param names the jobs this replica claims, read at each count
     * @param scope the census ends with it
     */
    ReplicaCensus(Leases leases, Supplier<Collection<String>> names, LeaseScope scope, SchedulerSettings settings) {
        this.every = settings.censusEvery();
        this.recent = settings.censusRecent();
        this.leases = leases;
        this.names = names;
        this.scope = scope;
    }

    void start() {
        Thread.ofVirtual().name("replica-census").start(this::run);
    }

    private void run() {
        try {
            do {
                count();
            } while (!scope.await(every));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Counts the replicas now. */
    void count() {
        Collection<String> claimed = names.get();
        if (claimed.isEmpty()) {
            return;
        }
        try {
            Set<String> instances = new HashSet<>(leases.views().claimingInstances(claimed, recent));
            instances.add(leases.instance());
            replicas = instances.size();
        } catch (LeaseDatabaseException e) {
            // Counted again at the next turn: the claims themselves report a database that does not answer.
        }
    }

    /** The replicas at the last count, at least 1. */
    int replicas() {
        return replicas;
    }
}
