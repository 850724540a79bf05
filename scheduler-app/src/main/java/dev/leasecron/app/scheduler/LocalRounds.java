package dev.leasecron.app.scheduler;

import static dev.leasecron.app.scheduler.RoundLog.round;

import dev.leasecron.lease.GuardedTransactions;
import dev.leasecron.lease.LeaseScope;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.slf4j.MDC;
import org.slf4j.event.Level;

/**
 * Rounds of {@code scope: replica} jobs: every replica runs every instant, without a lease, so there is
 * nothing to claim, finish or run again. The timeout and a shutdown still cancel the round.
 */
final class LocalRounds {
    private final LeaseScope rounds;
    private final GuardedTransactions transactions;
    private final String instance;
    private final RoundListener listener;
    private final InFlight inFlight;

    LocalRounds(LeaseScope rounds, GuardedTransactions transactions, String instance, RoundListener listener, InFlight inFlight) {
        this.rounds = rounds;
        this.transactions = transactions;
        this.instance = instance;
        this.listener = listener;
        this.inFlight = inFlight;
    }

    void run(ScheduledJob job, Instant instant) {
        inFlight.enter();
        try {
            runRound(job, instant);
        } finally {
            inFlight.exit();
        }
    }

    private void runRound(ScheduledJob job, Instant instant) {
        round(Level.INFO, "round.start", job, instant, 0, "", instance, false)
                .log("round.start job={} instant={} scope=replica", job.name(), instant);
        listener.started(job, false, Duration.ZERO);
        long started = System.nanoTime();
        LeaseScope work = rounds.child();
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread worker = Thread.ofVirtual().name("round " + job.name()).start(() -> {
            MDC.put("job", job.name());
            MDC.put("instant", instant.toString());
            try {
                job.job().run(new RoundContext(job.name(), instant, 0, false, job.params(), job.timeout(),
                        JobLoggers.of(job.type()), work, transactions));
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            } finally {
                MDC.clear();
            }
        });
        RoundDeadlines deadline = RoundDeadlines.start(job.timeout(), RoundRunner.timeOut(job, work));
        try (AutoCloseable ignored = work.onCancel(worker::interrupt)) {
            done.exceptionally(t -> null).join();
        } catch (Exception e) {
            throw new IllegalStateException(e); // unregistering a callback does not fail
        } finally {
            deadline.end();
            work.detach();
        }
        Throwable error = done.isCompletedExceptionally() ? done.exceptionNow() : null;
        Outcome outcome = error == null ? Outcome.OK
                : work.reason() instanceof TimeoutException ? Outcome.TIMEOUT
                : work.isCancelled() ? Outcome.CUT_SHORT
                : Outcome.FAILED;
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        var entry = round(outcome == Outcome.OK ? Level.INFO : Level.WARN, "round.end", job, instant, 0, "", instance, false)
                .addKeyValue("outcome", outcome.label())
                .addKeyValue("duration_ms", took.toMillis())
                .addKeyValue("error", error == null ? null : String.valueOf(error.getMessage()));
        if (outcome == Outcome.FAILED) {
            entry = entry.setCause(error);
        }
        entry.log("round.end job={} instant={} outcome={} duration_ms={}", job.name(), instant, outcome.label(), took.toMillis());
        listener.ended(job, false, outcome, took);
    }
}
