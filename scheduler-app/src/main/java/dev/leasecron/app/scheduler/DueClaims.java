package dev.leasecron.app.scheduler;

import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.SlotClaims;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The claims of instants not due yet, gathered per instant and sent the moment the database clock
 * reaches it. One thread of the replica watches the clock for every job, so the claims of an instant go
 * out at once and together: the loops of a thousand jobs due at the same instant do not each have to
 * wake and queue for a carrier before the first statement can leave. The names are sent in statements
 * of at most {@link Leases#MAX_BATCH}, each from a thread of its own, so the rounds of each start as
 * soon as it returns; the statements are built in the seconds before the instant, and built again as
 * it comes only when its claims changed since.
 *
 * <p>A refused claim moves on to its job's next instant without waking its loop: with R replicas,
 * R - 1 of every instant's claims are refused, and a loop woken only to register again would compete
 * for the carriers with the rounds just won, and leave a fresh stack behind for the collector.
 */
final class DueClaims {
    /** A loop's claim: the instant it waits for now, guarded by {@link #lock}, and where its answer goes. */
    private static final class Claim {
        final String name;
        final Instants schedule;
        final Runnable refused;
        final LeaseScope scope;
        final CompletableFuture<DueAnswer> answer = new CompletableFuture<>();
        Instant slot;

        Claim(String name, Instant slot, Instants schedule, Runnable refused, LeaseScope scope) {
            this.name = name;
            this.slot = slot;
            this.schedule = schedule;
            this.refused = refused;
            this.scope = scope;
        }
    }

    /** The claims of one instant, and how often that set has changed; guarded by {@link #lock}. */
    private static final class Gathering {
        final Map<String, Claim> claims = new HashMap<>();
        int changes;
    }

    /** The statements of an instant's claims, built ahead for the set of claims as it was after {@code changes}. */
    private record Prepared(Instant slot, int changes, SlotClaims statements) {}

    /**
     * How long before an instant its claim statements are built: from the watcher's last wake-up before
     * it on. Built at the instant, they ran 3 to 10 ms of code that runs once per instant, and so is
     * never compiled, before the first statement left.
     */
    private static final Duration PREPARE_AHEAD = Duration.ofSeconds(2);

    private final Leases leases;
    private final DueClock clock;
    private final LeaseScope claiming;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** The claims waiting for their instant, earliest first; guarded by {@link #lock}. */
    private final TreeMap<Instant, Gathering> pending = new TreeMap<>();
    /** The earliest instant's statements, once built; guarded by {@link #lock}. */
    private Prepared prepared;
    private boolean watching;

    /**
     * @param claiming ends when the replica stops claiming; the watching thread ends with it
     */
    DueClaims(Leases leases, DueClock clock, LeaseScope claiming) {
        this.leases = leases;
        this.clock = clock;
        this.claiming = claiming;
        claiming.onCancel(this::wakeWatcher);
    }

    /**
     * Claims {@code slot} under {@code name} as soon as the database clock reaches it, in one batch with
     * every other claim of that instant; when refused, the schedule's next instant the same way, and so
     * on, until a claim is won, fails, or the schedule ends. Returns at once: no thread waits for the
     * answer, so a thousand jobs between instants cost a thousand small objects, not a thousand parked
     * stacks for the collector to copy.
     *
     * @param schedule the job's instants, for the one after a refused claim
     * @param refused told of each refused claim moved on from; the claim answered is the caller's to report
     * @return completes with the instant last claimed and its handle when won; the failure when the
     *     database did not answer for it; neither when refused with no instant left, or when {@code scope}
     *     ended before the claim was sent (it then never is). Completes on the thread that answers, which
     *     must not be held up: callers hand the answer on to a thread of their own.
     */
    CompletableFuture<DueAnswer> claim(String name, Instant slot, Instants schedule, Runnable refused, LeaseScope scope) {
        Claim claim = new Claim(name, slot, schedule, refused, scope);
        if (!add(claim)) {
            // The same name twice for one instant (a job replaced while its claim waited): a claim of
            // its own, so that at most one of the two can win.
            return CompletableFuture.completedFuture(DueAnswer.claimNow(leases, name, slot));
        }
        AutoCloseable withdrawal = scope.onCancel(() -> withdraw(claim));
        claim.answer.whenComplete((answer, failure) -> unregister(withdrawal));
        return claim.answer;
    }

    private static void unregister(AutoCloseable withdrawal) {
        try {
            withdrawal.close();
        } catch (Exception e) {
            throw new IllegalStateException(e); // unregistering a scope's callback does not fail
        }
    }

    /** Adds {@code claim} under its instant unless its name is there already. */
    private boolean add(Claim claim) {
        lock.lock();
        try {
            return register(claim);
        } finally {
            lock.unlock();
        }
    }

    /** {@link #add}, the lock held. */
    private boolean register(Claim claim) {
        Gathering gathering = pending.get(claim.slot);
        boolean newInstant = gathering == null;
        if (newInstant) {
            gathering = new Gathering();
            pending.put(claim.slot, gathering);
        }
        if (gathering.claims.putIfAbsent(claim.name, claim) != null) {
            return false;
        }
        gathering.changes++;
        if (!watching) {
            watching = true;
            Thread.ofPlatform().daemon().name("claim-when-due").start(this::watch);
        } else if (newInstant && pending.firstKey().equals(claim.slot)) {
            // Woken once per new earliest instant, not once per claim: a thousand claims register for
            // the next instant within milliseconds, and each wake-up would take this lock from them.
            changed.signal();
        }
        return true;
    }

    /** The claims waiting for their instant to come. */
    int waiting() {
        lock.lock();
        try {
            return pending.values().stream().mapToInt(g -> g.claims.size()).sum();
        } finally {
            lock.unlock();
        }
    }

    /** Takes a claim not sent yet back: it is answered with nothing and never sent. */
    private void withdraw(Claim claim) {
        lock.lock();
        try {
            Gathering gathering = pending.get(claim.slot);
            if (gathering != null && gathering.claims.remove(claim.name, claim)) {
                gathering.changes++;
                claim.answer.complete(DueAnswer.of(claim.slot, Optional.empty()));
                if (gathering.claims.isEmpty()) {
                    pending.remove(claim.slot);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves refused claims of {@code slot} on to their jobs' next instants, or answers those with none,
     * whose loop stopped, or whose next instant has a claim under the same name already. One lock for
     * all: a statement's five hundred refusals would otherwise queue for it one by one against the
     * sender of the instant's other statement.
     */
    private void moveOn(List<Claim> refused, Instant slot) {
        List<Claim> answer = new ArrayList<>();
        List<Claim> moved = new ArrayList<>();
        Map<Claim, Instant> next = new HashMap<>();
        for (Claim claim : refused) {
            try {
                claim.schedule.next(slot).ifPresentOrElse(n -> next.put(claim, n), () -> answer.add(claim));
            } catch (RuntimeException e) {
                claim.answer.completeExceptionally(e);
            }
        }
        lock.lock();
        try {
            next.forEach((claim, instant) -> {
                // Checked under the lock its withdrawal takes: a loop stopping now finds the claim registered.
                if (!claim.scope.isCancelled()) {
                    claim.slot = instant;
                    if (register(claim)) {
                        moved.add(claim);
                        return;
                    }
                    claim.slot = slot;
                }
                answer.add(claim);
            });
        } finally {
            lock.unlock();
        }
        // Every loop answered before any callback runs: a callback that throws leaves no loop waiting.
        answer.forEach(claim -> claim.answer.complete(DueAnswer.of(slot, Optional.empty())));
        moved.forEach(claim -> claim.refused.run());
    }

    private void wakeWatcher() {
        lock.lock();
        try {
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Sends each instant's claims as it comes due, until the replica stops claiming. */
    private void watch() {
        try {
            Instant first;
            while ((first = firstPending()) != null) {
                // Asking the clock may read the database: never under the lock the loops register with.
                Duration wait = clock.nextWait(first, claiming);
                if (!wait.isZero() && wait.compareTo(PREPARE_AHEAD) <= 0 && prepareAhead(first)) {
                    continue; // building took time: ask the clock again
                }
                lock.lock();
                try {
                    // An earlier instant registered meanwhile is waited for instead, from the top.
                    if (!pending.isEmpty() && pending.firstKey().equals(first)) {
                        if (wait.isZero()) {
                            send(first, pending.pollFirstEntry().getValue());
                        } else {
                            // Cut short by a claim for an earlier instant, or by the replica stopping.
                            changed.awaitNanos(wait.toNanos());
                        }
                    }
                } finally {
                    lock.unlock();
                }
            }
        } catch (InterruptedException e) {
            // Nothing interrupts this thread but the JVM ending, or the replica stopping as the clock was read.
        } catch (RuntimeException | Error e) {
            failPending(e);
            throw e;
        } finally {
            lock.lock();
            try {
                watching = false;
            } finally {
                lock.unlock();
            }
        }
    }

    /** The earliest instant with claims waiting, once there is one; null when the replica stopped. */
    private Instant firstPending() throws InterruptedException {
        lock.lock();
        try {
            while (pending.isEmpty() && !claiming.isCancelled()) {
                changed.await();
            }
            return claiming.isCancelled() ? null : pending.firstKey();
        } finally {
            lock.unlock();
        }
    }

    /** A watcher that failed leaves no loop waiting for it: each gets the failure as its answer. */
    private void failPending(Throwable e) {
        lock.lock();
        try {
            pending.values().forEach(g -> g.claims.values().forEach(c -> c.answer.completeExceptionally(e)));
            pending.clear();
            prepared = null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Builds the statements of {@code slot}'s claims unless they are built for its claims as they stand.
     *
     * @return whether it built them
     */
    private boolean prepareAhead(Instant slot) {
        List<String> names;
        int changes;
        lock.lock();
        try {
            Gathering gathering = pending.get(slot);
            if (gathering == null || isPrepared(slot, gathering)) {
                return false;
            }
            names = new ArrayList<>(gathering.claims.keySet());
            changes = gathering.changes;
        } finally {
            lock.unlock();
        }
        SlotClaims statements;
        try {
            statements = leases.prepareSlotClaims(slot, names);
        } catch (RuntimeException e) {
            return false; // built again as the instant comes, where its failure reaches the loops waiting
        }
        lock.lock();
        try {
            prepared = new Prepared(slot, changes, statements);
        } finally {
            lock.unlock();
        }
        return true;
    }

    /** {@link #prepareAhead}'s statements are there for {@code gathering} as it stands; the lock held. */
    private boolean isPrepared(Instant slot, Gathering gathering) {
        return prepared != null && prepared.slot().equals(slot) && prepared.changes() == gathering.changes;
    }

    /**
     * Sends the claims of {@code slot}, now due, with the statements built ahead when they still fit,
     * else built now off the lock; the lock held.
     */
    private void send(Instant slot, Gathering gathering) {
        Map<String, Claim> claims = gathering.claims;
        if (isPrepared(slot, gathering)) {
            sendParts(slot, prepared.statements(), claims);
        } else {
            List<String> names = new ArrayList<>(claims.keySet());
            startSender(() -> {
                SlotClaims statements;
                try {
                    statements = leases.prepareSlotClaims(slot, names);
                } catch (RuntimeException | Error e) {
                    claims.values().forEach(claim -> claim.answer.completeExceptionally(e));
                    return;
                }
                sendParts(slot, statements, claims);
            });
        }
        prepared = null;
    }

    /** Sends each statement of {@code statements} from a thread of its own, so that the rounds of each start as it returns. */
    private void sendParts(Instant slot, SlotClaims statements, Map<String, Claim> claims) {
        statements.parts().forEach(part -> startSender(() -> sendPart(slot, part, claims)));
    }

    /**
     * Platform threads: the answers of one statement wake hundreds of virtual threads, which the sender
     * of the next would otherwise queue behind for a carrier.
     */
    private static void startSender(Runnable sending) {
        Thread.ofPlatform().daemon().name("claim-due").start(sending);
    }

    /** Sends one statement's claims and hands each answer to its loop. */
    private void sendPart(Instant slot, SlotClaims part, Map<String, Claim> claims) {
        List<String> names = part.names();
        Set<String> answered = new HashSet<>();
        try {
            part.send(result -> {
                answered.addAll(result.answered().keySet());
                answered.addAll(result.failed().keySet());
                // The rounds won are woken first: on the carriers their loops share, a round queued
                // behind other work would start later for nothing.
                result.answered().forEach((name, handle) -> handle.ifPresent(
                        h -> claims.get(name).answer.complete(DueAnswer.of(slot, handle))));
                result.failed().forEach((name, failed) -> claims.get(name).answer.complete(DueAnswer.failed(slot, failed)));
                List<Claim> refused = new ArrayList<>();
                result.answered().forEach((name, handle) -> {
                    if (handle.isEmpty()) {
                        refused.add(claims.get(name));
                    }
                });
                moveOn(refused, slot);
            });
            // A name left unanswered would be the batch's bug: its loop fails rather than waits forever.
            names.stream().filter(name -> !answered.contains(name)).forEach(name -> claims.get(name).answer
                    .completeExceptionally(new IllegalStateException("the claim batch gave no answer for " + name)));
        } catch (RuntimeException | Error e) {
            // Only the names not answered yet: a claim moved on is registered for a later instant.
            names.stream().filter(name -> !answered.contains(name))
                    .forEach(name -> claims.get(name).answer.completeExceptionally(e));
        }
    }
}
