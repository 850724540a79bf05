package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import java.util.function.IntSupplier;

/**
 * What the {@link Dispatcher} works with, built once by the {@link Scheduler}.
 *
 * @param leases the lease protocol on the primary database
 * @param clock the database clock, for when an instant is due
 * @param claiming ends when the replica stops claiming
 * @param settings the scheduler's tuning
 * @param events where instants and rounds are told
 * @param catchUp decides each job's first instant
 * @param rounds runs claimed rounds
 * @param localRounds runs rounds of jobs of every replica
 * @param replicas how many replicas share the jobs, this one included ({@link ReplicaCensus})
 * @param suspended the instants of suspended jobs, left alone ({@link Suspensions})
 * @param inFlight counts the claims out and the rounds running, for the shutdown
 */
record Scheduling(Leases leases, DueClock clock, LeaseScope claiming, SchedulerSettings settings, RoundEvents events,
        CatchUp catchUp, RoundRunner rounds, LocalRounds localRounds, IntSupplier replicas,
        SuspendedInstants suspended, InFlight inFlight) {}
