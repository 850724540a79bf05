package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Sends the claims the {@link Dispatcher} hands over, one instant's batch after the other, on one
 * thread: so the dispatcher keeps time for every job while a statement waits on the database, and the
 * claims put off after an instant go out once that instant's own claims have returned. Each batch
 * statement's answers go back to the dispatcher as soon as it returns, so the rounds of its names
 * start while the next statement is out.
 */
final class ClaimSender {
    private record Batch(Instant slot, List<JobState> states) {}

    private final Leases leases;
    private final RoundEvents events;
    private final Dispatcher dispatcher;
    private final LeaseScope claiming;
    private final BlockingQueue<Batch> batches = new LinkedBlockingQueue<>();

    ClaimSender(Leases leases, RoundEvents events, Dispatcher dispatcher, LeaseScope claiming) {
        this.leases = leases;
        this.events = events;
        this.dispatcher = dispatcher;
        this.claiming = claiming;
    }

    void start() {
        Thread.ofPlatform().daemon().name("claim-sender").start(this::run);
    }

    /** Claims {@code slot} for each job of {@code states}, in the order handed over. */
    void send(Instant slot, List<JobState> states) {
        batches.add(new Batch(slot, states));
    }

    private void run() {
        try {
            while (!claiming.isCancelled()) {
                Batch batch = batches.poll(1, TimeUnit.SECONDS);
                if (batch != null && !claiming.isCancelled()) {
                    send(batch);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void send(Batch batch) {
        Map<String, JobState> byName = new LinkedHashMap<>();
        // A job stopped since it was handed over is not claimed: its round would run a removed definition.
        batch.states().stream().filter(s -> !s.stopped).forEach(s -> byName.put(s.job.leaseName(), s));
        if (byName.isEmpty()) {
            return;
        }
        try {
            Set<String> caughtUp = new HashSet<>();
            byName.forEach((name, s) -> {
                if (s.catchUp) {
                    caughtUp.add(name);
                }
            });
            leases.slots().claimSlots(batch.slot(), byName.keySet(), caughtUp,
                    part -> dispatcher.answered(batch.slot(), part, byName));
        } catch (RuntimeException e) {
            // Not a database that does not answer (each statement's names get that as their answer): a bug.
            byName.values().forEach(s -> events.crashed(s.job, e));
        }
    }
}
