/**
 * The lease protocol: a name that at most one healthy process among those sharing the primary
 * database holds at a time. The scheduler claims a name per job and instant through it, so a cluster
 * runs each instant once, and a second time only for a round cut short.
 *
 * <h2>Where things are</h2>
 * <ul>
 *   <li>{@link dev.leasecron.lease.Leases}: the object made once per process over the primary database;
 *       the protocol itself (claim a name, hold it renewed, run work under it, release), the database
 *       clock, and the way to the two below.
 *   <li>{@link dev.leasecron.lease.InstantSlots} ({@code leases.slots()}): a scheduler's instants under
 *       their names: claims one at a time or in batch statements, reruns of instants cut short, the
 *       last instant on record.
 *   <li>{@link dev.leasecron.lease.HandleBatches} ({@code leases.batches()}): renewals, releases and
 *       finishes of many handles in one statement per 500 names.
 *   <li>{@link dev.leasecron.lease.LeaseViews} ({@code leases.views()}): reads of the table for
 *       operators and the census of replicas, changing nothing.
 *   <li>{@link dev.leasecron.lease.JobControls} ({@code leases.controls()}): operators' suspensions of
 *       jobs ({@code gst_suspensions}), read by every replica; a suspended job's instants are still
 *       claimed, once each, and finished at once as {@code suspended}; and requests to run a job now
 *       ({@link dev.leasecron.lease.RunRequest}), of which
 *       {@link dev.leasecron.lease.ManualRounds} ({@code leases.manualRounds()}): the replicas' side of
 *       those requests, each claimed with the job's lease by one replica
 *       ({@link dev.leasecron.lease.ManualRun}).
 *   <li>{@link dev.leasecron.lease.LeaseScope}, {@link dev.leasecron.lease.LeaseLostException},
 *       {@link dev.leasecron.lease.ConnectionWork}: the scope work runs in, the loss it ends with, and
 *       a guarded transaction's statements. This module depends on no other of leasecron's: the
 *       scheduler adapts these to the plugin API.
 *   <li>{@code dev.leasecron.lease.sql}: the statements, per dialect; not for use outside this module.
 * </ul>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>One holder per name at a time, by the database clock: a lease is one row of
 *       {@code gst_leases}; every claim, renewal and expiry is decided in SQL against the database's
 *       own now, so the processes of a deployment need not agree on the time.
 *   <li>Fencing by token and term: each claim mints a holder token never used before and moves the
 *       term, and every statement of a {@link dev.leasecron.lease.Handle} matches its token, so a
 *       holder waking from a pause cannot renew, release or finish a lease that changed hands.
 *   <li>A holder gives itself up before anyone else can claim: 10 s after the start of its last good
 *       renewal, 5 s before the database frees the name (see {@link dev.leasecron.lease.LeaseTimings}).
 *   <li>A transaction opened through {@link dev.leasecron.lease.GuardedTransactions} under a lease
 *       verifies it before its first statement, ends with the lease, and cannot commit after it.
 *   <li>Work that runs on past a loss by more than the step-down grace fails the process
 *       ({@link dev.leasecron.lease.LeaseFailure}).
 *   <li>Each instant of a job is claimed once cluster-wide; an instant whose round was cut short is
 *       on record and claimed a second time at most once; an instant given up or skipped is on
 *       record too, never silently lost.
 *   <li>A request to run a job now runs at most once per id: its claim of the job's lease and its
 *       move from pending to running commit together or not at all. Its round holds the job's lease
 *       like an instant's, and the instants that come meanwhile are taken along by its release,
 *       skipped and on record.
 * </ul>
 *
 * <h2>Non-guarantees</h2>
 * <ul>
 *   <li>Side effects outside guarded transactions are not fenced: a holder paused past its lease may
 *       run on for up to the step-down grace after its successor started. Use the term to fence
 *       external systems.
 *   <li>The local deadline is measured on this process's monotonic clock; skew between process and
 *       database clocks is tolerated, a skew <em>rate</em> (a clock running fast or slow) is not.
 *   <li>Nothing here waits for a name: a claim refused is a normal result; callers try again later.
 *   <li>The database is taken to be one: what it committed, it keeps. A replicated PostgreSQL that
 *       fails over to an asynchronous standby forgets the claims, renewals and finishes the standby
 *       had not received, and the promoted primary lets an instant be claimed and run again; only
 *       synchronous replication keeps every guarantee above across a failover.
 *   <li>Expiry is judged by whichever server is the primary now: after a failover, leases written by
 *       the old primary expire by the promoted one's clock, early or late by the difference between
 *       the two. The database hosts must keep their clocks in step.
 * </ul>
 *
 * <h2>A round's end</h2>
 * How the scheduler ends the round of an instant, and where that reads the protocol's text one way
 * among others:
 * <ul>
 *   <li>A round is cut short only when what its work threw is the interruption itself: the lease
 *       lost, or its scope ended for a shutdown (a {@link LeaseLostException}, the
 *       scope's reason, or what an interrupted thread or a cancelled task throws, once the scope has
 *       ended). A failure of the work's own that races a shutdown or a loss ran to its end: it is
 *       finished and never run again. A transaction the scope's end aborted throws the interruption,
 *       not the driver's error, so the rule holds for work cut off inside one.
 *   <li>A round that was winding down from a shutdown and then lost its lease names the loss in its
 *       end ({@link dev.leasecron.lease.Handle#loss()}), not the shutdown.
 *   <li>{@link dev.leasecron.lease.Handle#finish} of a handle known lost records the end without the
 *       lease and returns; it does not try to give the name back. {@link dev.leasecron.lease.HandleBatches#finishAll}
 *       answers such a handle as the single call returns.
 *   <li>A round cut short whose lease is known lost sends no release either (the protocol releases a
 *       round cut short, and leaves a handle known lost alone in its finish; the scheduler does the
 *       same for its release): the name is someone else's by then, or frees itself within
 *       {@code leaseDuration - localDeadline}, and a loss most often means the database did not
 *       answer, so a release would wait on it for nothing. The instant stays unfinished and is run
 *       again once the lease has expired. {@link dev.leasecron.lease.Handle#release} itself still
 *       tries, for callers that want it.
 * </ul>
 *
 * <h2>SQLite's one connection</h2>
 * On SQLite a renewal waits behind the work's own transactions on the one connection. The protocol
 * bounds what that costs (one transaction shorter than {@code localDeadline - renewInterval}, or
 * transactions back to back each shorter than half the local deadline, never cost the lease) on the
 * assumption that the connection goes to whoever asked first, as Go's connection pool hands it on.
 * HikariCP gives it straight back to the thread that returned it instead, so back-to-back
 * transactions would starve the renewals; {@link dev.leasecron.lease.InTurn} restores the order, and
 * the daemon wraps an SQLite primary with it for the leases and the transaction guard alike.
 *
 * <h2>Statements</h2>
 * Each statement family lives in one class of {@code dev.leasecron.lease.sql}; no lock outlives its
 * own statement. The statements the scheduler runs at volume (claim an instant, renew, finish,
 * release) have batch forms in the same classes, one statement for up to {@link
 * dev.leasecron.lease.Leases#MAX_BATCH} names, each row under the single statement's own WHERE, so a
 * batch has the outcome the single statements would have had name by name. (On PostgreSQL a batch
 * claim passes over the rows another transaction holds, and a second statement claims those, waiting
 * for their locks.) ClickHouse cannot carry leases ({@link dev.leasecron.lease.UnsupportedDatabaseException}).
 *
 * <h2>Databases tested</h2>
 * PostgreSQL 15, MariaDB 10.11 and SQLite 3.54, every test on each. The MySQL dialect is the
 * MariaDB one's twin and is exercised against MariaDB only: no MySQL server is tested.
 *
 * <h2>Where this departs from the specification, and why</h2>
 * <ul>
 *   <li>Statement timeout: the specification bounds each renewal attempt (half the local deadline,
 *       5 s). Here every statement of the package, claims, finds and the guard's verify included,
 *       carries that bound as its JDBC query timeout, so a statement stuck on a row lock or a dead
 *       connection ends instead of holding a caller forever; a renewal is still bounded to its exact
 *       budget by the holder's own clock. JDBC counts the timeout in whole seconds, so it is rounded
 *       up (timings scaled down to milliseconds get 1 s). SQLite has none: sqlite-jdbc would replace
 *       the URL's {@code busy_timeout} with it, and there the wait is for the file lock, which the
 *       busy timeout bounds.
 *   <li>Holder token: the specification mints a token per claim that is never reused. Here a token
 *       is 64 random bits drawn once per process followed by a 64-bit counter that starts at a random
 *       value: it never repeats within a process and across processes only if two drew the same
 *       128 bits. It is unique but guessable, and nothing rests on it being hard to guess; a thousand
 *       claims of one instant no longer pay for a thousand draws of a secure random.
 *   <li>Names: {@code name} is the table's primary key, which makes it the unique key the
 *       specification asks for and the index every statement finds its row by. On MySQL/MariaDB the
 *       table has a binary collation ({@code utf8mb4_bin}), so names compare byte by byte as they do
 *       on PostgreSQL and SQLite; the servers' default collations ignore case and would make
 *       {@code Job} and {@code job} one lease.
 *   <li>The rerun sweep (the scheduler's use of find and claim again): it looks every half retry
 *       interval (1 s) and, besides, the moment a lease it saw holding an unfinished instant expires
 *       ({@link dev.leasecron.lease.InstantSlots#unfinishedSlots(java.util.Collection, java.time.Duration)}),
 *       so that the rerun is claimed ahead of the job's next instant, whose claim would give the
 *       instant up. Its looks carry no jitter: replicas may look in step, which costs each one
 *       statement. A look the database does not answer is logged at WARN
 *       ({@code rerun.sweep_failed}) and tried again a retry interval later.
 *   <li>A ClickHouse primary: the package refuses it, as specified. The daemon then runs a jobs file
 *       whose every job is of {@code scope: replica}, which takes no lease, deciding when an instant
 *       is due by the process clock, since no lease statement reads the database's there; a file
 *       with a cluster-wide job is refused at start.
 *   <li>Claim the last instant again ({@link dev.leasecron.lease.InstantSlots#claimLastAgain}), not in
 *       the specification: an instant that was finished without running (its job suspended) is
 *       claimed a second time for a late run when its job is resumed. It takes the last instant on
 *       record only when finished, never claimed a second time and free, under the term read, and
 *       marks it claimed a second time ({@code rerun_slot_ms}), so it runs once, and a round of it
 *       cut short is not run again, like a rerun cut short.
 *   <li>jOOQ's check of the database's version against its dialect is silenced in the daemon's
 *       logging: the open-source dialects support only recent versions and warn at every start on
 *       the versions above, on which these statements are tested.
 * </ul>
 */
package dev.leasecron.lease;
