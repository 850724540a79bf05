/**
 * The scheduler: which replica runs each instant of each job, and what is told about it.
 *
 * <h2>An instant, from its timer to {@code Job.run} and back</h2>
 * Three threads carry an instant of a cluster-wide job; each step below is one call.
 * <ol>
 *   <li><b>dispatcher thread</b> ({@link dev.leasecron.app.scheduler.Dispatcher}): {@code run} waits on
 *       {@link dev.leasecron.app.scheduler.DueClock#nextWait} until the database clock reaches the earliest
 *       {@link dev.leasecron.app.scheduler.JobState} of its table; {@code takeDue} takes every job due,
 *       moving a claim that came too late on to the latest instant come
 *       ({@link dev.leasecron.app.scheduler.JobState#skipStale}); {@code handOut} groups them by instant
 *       and hands each group to {@link dev.leasecron.app.scheduler.ClaimSender#send}.</li>
 *   <li><b>claim-sender thread</b>: {@code ClaimSender.run} merges the groups handed over while its
 *       last statement was out, one per instant, and sends each with {@code Leases.claimSlots}, one
 *       batch statement per 500 names, and hands each statement's answers
 *       to {@code Dispatcher.answered}: a claim won goes to {@code won}, which starts the round on a
 *       virtual thread; a refusal to {@code refused}, which queues the job's next instant, at it or put
 *       off ({@link dev.leasecron.app.scheduler.ClaimPlacement}); a failure to {@code failed}, which
 *       queues the same instant again after the retry interval.</li>
 *   <li><b>the round's virtual thread</b>: {@code RoundThreads.claimed} logs the instants passed over,
 *       then {@link dev.leasecron.app.scheduler.RoundRunner#run} holds the lease (renewals go through the
 *       lease module's shared renewal), runs the work under it with {@code Leases.run}, and the job's
 *       {@code Job.run} is called from there. The round's finish (or release) is a group commit
 *       ({@link dev.leasecron.app.scheduler.RoundEnds}): the round waits for its answer, logs its end through
 *       {@link dev.leasecron.app.scheduler.RoundEvents} and reports it once with
 *       {@code Dispatcher.roundEnded(state, passed)}, which queues the job's next instant after
 *       {@code passed}.</li>
 * </ol>
 * From the timer to {@code Job.run}: {@code run}, {@code takeDue}, {@code handOut}, {@code send} (hand-off),
 * {@code ClaimSender.send(batch)}, {@code Leases.claimSlots} (and the lease module's own statement calls),
 * {@code answered}, {@code won}, {@code RoundThreads.claimed} (hand-off), {@code RoundRunner.run},
 * {@code Leases.run}, {@code runJob}, {@code Job.run}. A job of every replica skips the claim: {@code handOut}
 * starts its round at once ({@code RoundThreads.local}) and {@link dev.leasecron.app.scheduler.LocalRounds#run}
 * calls the job.
 *
 * <p>The next instant of a job is decided in one place, the dispatcher: after a refusal
 * ({@code refused}), after a round ({@code roundEnded}), and at start
 * ({@link dev.leasecron.app.scheduler.CatchUp}, which reads the last instant on record on a thread of its
 * own and decides whether the most recent one missed is caught up). Beside the path: the
 * {@link dev.leasecron.app.scheduler.RerunSweep} claims instants cut short again,
 * {@link dev.leasecron.app.scheduler.RunRequests} claims the operators' requests to run a job now and
 * hands each won to {@link dev.leasecron.app.scheduler.ManualRoundRunner} (the round under the job's
 * lease, {@code trigger=manual}; the instants it held off logged skipped), the
 * {@link dev.leasecron.app.scheduler.ReplicaCensus} counts the replicas for the placement, the
 * {@link dev.leasecron.app.scheduler.Suspensions} read the operators' suspensions every renew interval
 * (a suspended job's instant is claimed as usual and {@code RoundRunner.run} hands it to
 * {@link dev.leasecron.app.scheduler.SuspendedInstants}, which finishes it at once as suspended; on
 * resume the {@link dev.leasecron.app.scheduler.ResumeCatchUp} runs the latest suspended instant once
 * for a job of {@code catchUp: latest}), and
 * {@link dev.leasecron.app.scheduler.SchedulerSettings} holds the tuning.
 *
 * <h2>Glossary</h2>
 * <dl>
 *   <dt>instant</dt><dd>A moment the job's schedule names, in UTC; the lease protocol calls it a slot.
 *       Each is run by one replica, once, unless cut short.</dd>
 *   <dt>round</dt><dd>One run of a job for one instant, from {@code round.start} to {@code round.end}.</dd>
 *   <dt>cut short</dt><dd>A round stopped by a shutdown or a lost lease (not by its own failure or
 *       timeout): its instant stays unfinished and is run once more, elsewhere, as a rerun.</dd>
 *   <dt>superseded</dt><dd>An instant cut short whose rerun never came before the claim of a later
 *       instant of the job gave it up: logged {@code instant.superseded}, never run again.</dd>
 *   <dt>taken along / skipped</dt><dd>The instants a round overran: its finish records the latest one
 *       come, so they are not claimed late; logged {@code instant.skipped}. A manual round's release
 *       does the same for the instants that came while it held the job's lease.</dd>
 *   <dt>manual round</dt><dd>A run an operator asked for ({@code leasecron trigger}), outside the
 *       schedule: its instant is the request's time, and it is never run a second time.</dd>
 *   <dt>missed</dt><dd>Instants no replica claimed (all were down, or the database did not answer):
 *       logged {@code instant.missed} (or {@code instant.unclaimed}) by the replica that notices.</dd>
 *   <dt>put off</dt><dd>A claim sent shortly after its instant rather than at it, because this replica
 *       lost the job's last instant: the replica that won it claims first, alone.</dd>
 *   <dt>caught up</dt><dd>At start, the most recent instant no replica ran, run late once when the job
 *       asks for it ({@code catchUp: latest}) and it is recent enough.</dd>
 *   <dt>suspended</dt><dd>An instant of a job an operator suspended: claimed by one replica as any other,
 *       and finished at once without running; logged {@code instant.suspended}.</dd>
 * </dl>
 */
package dev.leasecron.app.scheduler;
