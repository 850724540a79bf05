package dev.leasecron.app.scheduler;

import dev.leasecron.lease.BatchResult;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Sends the claims the {@link Dispatcher} hands over, on one thread: so the dispatcher keeps time for
 * every job while a statement waits on the database, and the claims put off after an instant go out
 * once that instant's own claims have returned. It is a group commit: the claims handed over while a
 * statement was out go together, one batch per instant, earliest instant first. Under load the jobs
 * come back to the dispatcher one by one, as their rounds end; sent one statement each they would cost
 * a statement's overhead per claim just when the database has least to spare, and queue behind each
 * other until the claims went out seconds late. Each batch statement's answers go back to the
 * dispatcher as soon as it returns, so the rounds of its names start while the next statement is out.
 */
final class ClaimSender {
    /** Where each statement's answers go: the {@link Dispatcher}. */
    @FunctionalInterface
    interface Answers {
        /** What one statement answered for the claims of {@code slot}; {@code byName} holds every job of its batch. */
        void answered(Instant slot, BatchResult<String, Optional<Handle>> part, Map<String, JobState> byName);
    }

    private record Batch(Instant slot, List<JobState> states) {}

    private final Leases leases;
    private final RoundEvents events;
    private final Answers answers;
    private final LeaseScope claiming;
    private final InFlight inFlight;
    private final BlockingQueue<Batch> batches = new LinkedBlockingQueue<>();

    ClaimSender(Leases leases, RoundEvents events, Answers answers, LeaseScope claiming, InFlight inFlight) {
        this.leases = leases;
        this.events = events;
        this.answers = answers;
        this.claiming = claiming;
        this.inFlight = inFlight;
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
                Batch first = batches.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                // Counted from before the check that claiming goes on until the rounds won count themselves (InFlight).
                try (InFlight.Count out = inFlight.count()) {
                    if (!claiming.isCancelled()) {
                        List<Batch> waiting = new ArrayList<>();
                        waiting.add(first);
                        batches.drainTo(waiting);
                        bySlot(waiting).forEach(this::send);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The batches merged, one per instant, earliest first; each keeps the order its jobs were handed over in. */
    private static List<Batch> bySlot(List<Batch> waiting) {
        Map<Instant, List<JobState>> merged = new TreeMap<>();
        waiting.forEach(b -> merged.computeIfAbsent(b.slot(), slot -> new ArrayList<>()).addAll(b.states()));
        List<Batch> batches = new ArrayList<>();
        merged.forEach((slot, states) -> batches.add(new Batch(slot, states)));
        return batches;
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
                    part -> answers.answered(batch.slot(), part, byName));
        } catch (RuntimeException e) {
            // Not a database that does not answer (each statement's names get that as their answer): a bug.
            byName.values().forEach(s -> events.crashed(s.job, e));
        }
    }
}
