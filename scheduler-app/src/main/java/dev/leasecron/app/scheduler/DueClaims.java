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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

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
 *
 * <p>A claim moved on after a refusal mostly goes out once the replica's claims of its instant have
 * returned, and no sooner than {@link #AFTER_REFUSAL} after it, in statements of its own: the replica
 * that won a name last time claims it alone at the instant, so that an instant's names are not fought
 * over by every replica at once, each statement queueing on rows another holds while all of them
 * start rounds on the same cores. A replica short of an even share of its names still contests some
 * at the instant ({@link EvenShare}), so a replica started after the others gets its share instead of
 * the first one up keeping every job, and once the names are spread no claim contests one. When a
 * replica stops, the others claim its names that much later. Which replica wins is still the claim's
 * to decide: a claim put off only comes second.
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
        /** Refused at the instant before {@link #slot} and not contesting it: sent after the claims at it. */
        boolean putOff;

        Claim(String name, Instant slot, Instants schedule, Runnable refused, LeaseScope scope) {
            this.name = name;
            this.slot = slot;
            this.schedule = schedule;
            this.refused = refused;
            this.scope = scope;
        }

        /** When this claim goes out; guarded by {@link #lock}, as {@link #slot} and {@link #putOff} are. */
        Due due() {
            return Due.of(slot, putOff);
        }
    }

    /**
     * When claims of {@code slot} go out: at the instant, or {@link #AFTER_REFUSAL} after it for claims
     * put off. Earliest first, and for the same moment the earlier instant first.
     */
    private record Due(Instant at, Instant slot) implements Comparable<Due> {
        static Due of(Instant slot, boolean putOff) {
            return new Due(putOff ? slot.plus(AFTER_REFUSAL) : slot, slot);
        }

        @Override
        public int compareTo(Due other) {
            int byTime = at.compareTo(other.at);
            return byTime != 0 ? byTime : slot.compareTo(other.slot);
        }
    }

    /**
     * The claims going out together at one {@link Due}, how often that set has changed, and its
     * statements once built; guarded by {@link #lock}.
     */
    private static final class Gathering {
        final Map<String, Claim> claims = new HashMap<>();
        int changes;
        Prepared prepared;
        /** For claims put off: the claims sent at their instant have returned. */
        CompletableFuture<Void> after = CompletableFuture.completedFuture(null);

        /** The statements are built for the claims as they stand. */
        boolean isPrepared() {
            return prepared != null && prepared.changes() == changes;
        }
    }

    /** How a name's last claim went, and the scope of the loop that made it. */
    private record LastClaim(boolean won, LeaseScope loop) {}

    /** The statements of a gathering's claims, built ahead for the set of claims as it was after {@code changes}. */
    private record Prepared(int changes, SlotClaims statements) {}

    /**
     * How soon after its instant a claim put off goes out at the earliest: past the time the round
     * starts of an instant take with a thousand jobs due (under 100 ms measured with three replicas on
     * two cores), so that its statements do not compete with them for the cores; next to the lease's
     * 15 s, a small delay for the jobs of a replica that stopped. With more jobs due, it waits for
     * the replica's claims of the instant to return instead: it would meet the rows they write.
     */
    static final Duration AFTER_REFUSAL = Duration.ofMillis(250);

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
    private final TreeMap<Due, Gathering> pending = new TreeMap<>();
    /** Per name answered, whether its last claim was won, until its loop stops; guarded by {@link #lock}. */
    private final Map<String, LastClaim> lastClaims = new HashMap<>();
    /** The names of {@link #lastClaims} won; guarded by {@link #lock}. */
    private int held;
    private final IntSupplier replicas;
    private boolean watching;

    /**
     * @param claiming ends when the replica stops claiming; the watching thread ends with it
     * @param replicas how many replicas share the names claimed, this one included
     *     ({@link ReplicaCensus})
     */
    DueClaims(Leases leases, DueClock clock, LeaseScope claiming, IntSupplier replicas) {
        this.leases = leases;
        this.clock = clock;
        this.claiming = claiming;
        this.replicas = replicas;
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
        Gathering other = pending.get(Due.of(claim.slot, !claim.putOff));
        if (other != null && other.claims.containsKey(claim.name)) {
            return false; // a name is claimed once per instant, put off or not
        }
        Due due = claim.due();
        Gathering gathering = pending.get(due);
        boolean newDue = gathering == null;
        if (newDue) {
            gathering = new Gathering();
            pending.put(due, gathering);
        }
        if (gathering.claims.putIfAbsent(claim.name, claim) != null) {
            return false;
        }
        gathering.changes++;
        if (!watching) {
            watching = true;
            Thread.ofPlatform().daemon().name("claim-when-due").start(this::watch);
        } else if (newDue && pending.firstKey().equals(due)) {
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
            Due due = claim.due();
            Gathering gathering = pending.get(due);
            if (gathering != null && gathering.claims.remove(claim.name, claim)) {
                gathering.changes++;
                claim.answer.complete(DueAnswer.of(claim.slot, Optional.empty()));
                if (gathering.claims.isEmpty()) {
                    pending.remove(due);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Records how the last claim of {@code claim}'s name went, until its loop stops; the lock held. */
    private void tally(Claim claim, boolean won) {
        LastClaim before = lastClaims.put(claim.name, new LastClaim(won, claim.scope));
        held += (won ? 1 : 0) - (before != null && before.won() ? 1 : 0);
        if (before == null || before.loop() != claim.scope) {
            // Once per loop: its scope runs the callback outside its own lock, so taking this one is safe.
            claim.scope.onCancel(() -> forget(claim.name, claim.scope));
        }
    }

    /** The loop of {@code name} stopped: its job counts no more towards this replica's share. */
    private void forget(String name, LeaseScope loop) {
        lock.lock();
        try {
            LastClaim last = lastClaims.get(name);
            if (last != null && last.loop() == loop) {
                lastClaims.remove(name);
                held -= last.won() ? 1 : 0;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Tallies the claims of {@code slot} won and moves the refused ones on to their jobs' next instants,
     * or answers those with none, whose loop stopped, or whose next instant has a claim under the same
     * name already. One lock for all: a statement's five hundred refusals would otherwise queue for it
     * one by one against the sender of the instant's other statement.
     */
    private void settle(List<Claim> won, List<Claim> refused, Instant slot) {
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
            won.forEach(claim -> tally(claim, true));
            refused.forEach(claim -> tally(claim, false));
            double contestOdds = EvenShare.contestOdds(lastClaims.size(), held, replicas.getAsInt());
            next.forEach((claim, instant) -> {
                // Checked under the lock its withdrawal takes: a loop stopping now finds the claim registered.
                if (!claim.scope.isCancelled()) {
                    boolean wasPutOff = claim.putOff;
                    claim.slot = instant;
                    claim.putOff = contestOdds == 0 || ThreadLocalRandom.current().nextDouble() >= contestOdds;
                    if (register(claim)) {
                        moved.add(claim);
                        return;
                    }
                    claim.slot = slot;
                    claim.putOff = wasPutOff;
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
            Due first;
            while ((first = firstPending()) != null) {
                // Asking the clock may read the database: never under the lock the loops register with.
                Duration wait = clock.nextWait(first.at(), claiming);
                if (!wait.isZero() && wait.compareTo(PREPARE_AHEAD) <= 0) {
                    if (prepareAhead(first)) {
                        continue; // building took time: ask the clock again
                    }
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

    /** When the earliest claims waiting go out, once there are some; null when the replica stopped. */
    private Due firstPending() throws InterruptedException {
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
        } finally {
            lock.unlock();
        }
    }

    /**
     * Builds the statements of the claims of {@code first}'s instant unless they are built for those
     * claims as they stand: its claims put off too, which go out while its rounds start.
     *
     * @return whether it built any
     */
    private boolean prepareAhead(Due first) {
        record Unbuilt(Gathering gathering, int changes, List<String> names) {}
        List<Unbuilt> unbuilt = new ArrayList<>();
        lock.lock();
        try {
            pending.subMap(first, true, Due.of(first.slot(), true), true).forEach((due, gathering) -> {
                if (due.slot().equals(first.slot()) && !gathering.isPrepared()) {
                    unbuilt.add(new Unbuilt(gathering, gathering.changes, List.copyOf(gathering.claims.keySet())));
                }
            });
        } finally {
            lock.unlock();
        }
        Map<Gathering, Prepared> built = new HashMap<>();
        for (Unbuilt u : unbuilt) {
            try {
                built.put(u.gathering(), new Prepared(u.changes(), leases.prepareSlotClaims(first.slot(), u.names())));
            } catch (RuntimeException e) {
                // Built again as the instant comes, where its failure reaches the loops waiting.
            }
        }
        lock.lock();
        try {
            built.forEach((gathering, prepared) -> gathering.prepared = prepared);
        } finally {
            lock.unlock();
        }
        return !built.isEmpty();
    }

    /**
     * Sends the claims due at {@code due}, with the statements built ahead when they still fit, else
     * built now off the lock; claims put off once the claims sent at their instant have returned. The
     * lock held.
     */
    private void send(Due due, Gathering gathering) {
        Instant slot = due.slot();
        Map<String, Claim> claims = gathering.claims;
        SlotClaims built = gathering.isPrepared() ? gathering.prepared.statements() : null;
        List<String> names = built == null ? new ArrayList<>(claims.keySet()) : List.of();
        CompletableFuture<Void> returned;
        if (built != null && gathering.after.isDone()) {
            returned = sendParts(slot, built, claims);
        } else {
            returned = gathering.after.exceptionally(failure -> null).thenComposeAsync(ignored -> {
                try {
                    return sendParts(slot, built != null ? built : leases.prepareSlotClaims(slot, names), claims);
                } catch (RuntimeException | Error e) {
                    claims.values().forEach(claim -> claim.answer.completeExceptionally(e));
                    return CompletableFuture.<Void>completedFuture(null);
                }
            }, DueClaims::startSender);
        }
        Gathering putOff = due.at().equals(slot) ? pending.get(Due.of(slot, true)) : null;
        if (putOff != null) {
            putOff.after = returned;
        }
    }

    /**
     * Sends each statement of {@code statements} from a thread of its own, so that the rounds of each
     * start as it returns.
     *
     * @return completes once every statement has returned and its answers are handed on
     */
    private CompletableFuture<Void> sendParts(Instant slot, SlotClaims statements, Map<String, Claim> claims) {
        return CompletableFuture.allOf(statements.parts().stream()
                .map(part -> CompletableFuture.runAsync(() -> sendPart(slot, part, claims), DueClaims::startSender))
                .toArray(CompletableFuture[]::new));
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
                List<Claim> won = new ArrayList<>();
                List<Claim> refused = new ArrayList<>();
                result.answered().forEach((name, handle) -> (handle.isEmpty() ? refused : won).add(claims.get(name)));
                settle(won, refused, slot);
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
