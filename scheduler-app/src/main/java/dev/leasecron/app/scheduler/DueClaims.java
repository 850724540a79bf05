package dev.leasecron.app.scheduler;

import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The claims of instants not due yet, gathered per instant and sent the moment the database clock
 * reaches it. One thread of the replica watches the clock for every job, so the claims of an instant go
 * out at once and together: the loops of a thousand jobs due at the same instant do not each have to
 * wake and queue for a carrier before the first statement can leave, and a loop whose claim is refused
 * wakes once, for the answer. The names are sent in statements of at most {@link Leases#MAX_BATCH},
 * each from a thread of its own, so the rounds of each start as soon as it returns.
 */
final class DueClaims {
    private final Leases leases;
    private final DueClock clock;
    private final LeaseScope claiming;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** The claims waiting for their instant, earliest first; guarded by {@link #lock}. */
    private final TreeMap<Instant, Map<String, CompletableFuture<Optional<Handle>>>> pending = new TreeMap<>();
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
     * every other claim of that instant.
     *
     * @return the handle when the claim was won; empty when it was refused, or when {@code scope} ended
     *     before the claim was sent (it then never is)
     * @throws LeaseDatabaseException the database did not answer for this name
     */
    Optional<Handle> claim(String name, Instant slot, LeaseScope scope) throws InterruptedException {
        CompletableFuture<Optional<Handle>> answer = new CompletableFuture<>();
        if (!register(name, slot, answer)) {
            // The same name twice for one instant (a job replaced while its claim waited): a claim of
            // its own, so that at most one of the two can win.
            return leases.claimSlot(name, slot);
        }
        try (AutoCloseable ignored = scope.onCancel(() -> withdraw(name, slot, answer))) {
            return answer.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("claim of " + name + " failed", e.getCause());
        } catch (InterruptedException e) {
            withdraw(name, slot, answer);
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e); // unregistering a callback does not fail
        }
    }

    private boolean register(String name, Instant slot, CompletableFuture<Optional<Handle>> answer) {
        lock.lock();
        try {
            if (pending.computeIfAbsent(slot, s -> new HashMap<>()).putIfAbsent(name, answer) != null) {
                return false;
            }
            if (!watching) {
                watching = true;
                Thread.ofPlatform().daemon().name("claim-when-due").start(this::watch);
            } else if (pending.firstKey().equals(slot)) {
                changed.signal();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The claims waiting for their instant to come. */
    int waiting() {
        lock.lock();
        try {
            return pending.values().stream().mapToInt(Map::size).sum();
        } finally {
            lock.unlock();
        }
    }

    /** Takes a claim not sent yet back: it answers empty and is never sent. */
    private void withdraw(String name, Instant slot, CompletableFuture<Optional<Handle>> answer) {
        lock.lock();
        try {
            Map<String, CompletableFuture<Optional<Handle>>> gathering = pending.get(slot);
            if (gathering != null && gathering.remove(name, answer)) {
                answer.complete(Optional.empty());
                if (gathering.isEmpty()) {
                    pending.remove(slot);
                }
            }
        } finally {
            lock.unlock();
        }
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
            pending.values().forEach(claims -> claims.values().forEach(a -> a.completeExceptionally(e)));
            pending.clear();
        } finally {
            lock.unlock();
        }
    }

    private void send(Instant slot, Map<String, CompletableFuture<Optional<Handle>>> claims) {
        List<String> names = new ArrayList<>(claims.keySet());
        names.sort(null);
        for (int from = 0; from < names.size(); from += Leases.MAX_BATCH) {
            List<String> chunk = names.subList(from, Math.min(names.size(), from + Leases.MAX_BATCH));
            // Platform threads: the answers of one statement wake hundreds of virtual threads, which the
            // sender of the next would otherwise queue behind for a carrier.
            Thread.ofPlatform().daemon().name("claim-due").start(() -> sendChunk(slot, chunk, claims));
        }
    }

    private void sendChunk(Instant slot, List<String> names, Map<String, CompletableFuture<Optional<Handle>>> claims) {
        try {
            leases.claimSlots(slot, names, part -> {
                // The rounds won are woken first: on the carriers their loops share, a round queued
                // behind the loops of claims refused would start later for nothing.
                part.answered().forEach((name, handle) -> handle.ifPresent(h -> claims.get(name).complete(handle)));
                part.answered().forEach((name, handle) -> claims.get(name).complete(handle));
                part.failed().forEach((name, failed) -> claims.get(name).completeExceptionally(failed));
            });
            // A name left unanswered would be the batch's bug: its loop fails rather than waits forever.
            names.stream().filter(name -> !claims.get(name).isDone()).forEach(name -> claims.get(name).completeExceptionally(
                    new IllegalStateException("the claim batch gave no answer for " + name)));
        } catch (RuntimeException | Error e) {
            names.forEach(name -> claims.get(name).completeExceptionally(e));
        }
    }
}
