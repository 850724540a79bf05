package dev.leasecron.app.scheduler;

import dev.leasecron.jobs.LeaseLostException;
import dev.leasecron.lease.BatchResult;
import dev.leasecron.lease.Coalescer;
import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

/**
 * The lease statements the job loops and rounds of this replica share: each loop still claims its
 * own instants and each round finishes or releases its own lease, logging as before, but the calls
 * go out together as one batch statement. Claims made ahead of their instant wait for it together
 * and leave as it comes (see {@link DueClaims}); the other calls arriving within a few milliseconds
 * of each other share a statement (see {@link Coalescer}): the rounds that end together share their
 * finishes, a claim tried again or a catch-up shares with those made with it. A job alone goes the
 * same way, a batch of one. {@link #singleRow} sends each call as the single-row statement instead,
 * for measuring what sharing them buys.
 */
final class SharedStatements {
    /**
     * How long a claim tried again or a round's end waits for others: the rounds of jobs due at one
     * instant end within a few milliseconds of each other; a few milliseconds more buys the
     * statements of hundreds of rounds.
     */
    static final Duration WINDOW = Duration.ofMillis(5);

    private record SlotName(String name, Instant slot) {}

    private record Ending(Handle handle, Instant passed) {}

    private final Leases leases;
    private final DueClock clock;
    private final boolean shared;
    private final DueClaims dueClaims;
    private final Coalescer<SlotName, Optional<Handle>> claims;
    private final Coalescer<Ending, Boolean> finishes;
    private final Coalescer<Handle, Boolean> releases;
    private final SerialEndings endings = new SerialEndings("round-endings");

    private SharedStatements(Leases leases, DueClock clock, LeaseScope claiming, IntSupplier replicas,
            boolean shared) {
        this.leases = leases;
        this.clock = clock;
        this.shared = shared;
        this.dueClaims = new DueClaims(leases, clock, claiming, replicas);
        this.claims = Coalescer.inParts("claim-batch", WINDOW, (asked, part) -> claim(leases, asked, part));
        this.finishes = new Coalescer<>("finish-batch", WINDOW, asked -> finish(leases, asked));
        this.releases = new Coalescer<>("release-batch", WINDOW, leases::releaseAll);
    }

    /**
     * Calls arriving together share a batch statement; claims made ahead of their instant share one
     * sent as it comes due.
     *
     * @param claiming ends when the replica stops claiming
     * @param replicas how many replicas share the jobs claimed, this one included ({@link ReplicaCensus})
     */
    static SharedStatements batched(Leases leases, DueClock clock, LeaseScope claiming, IntSupplier replicas) {
        return new SharedStatements(leases, clock, claiming, replicas, true);
    }

    /** Every call is its single-row statement, sent at once: one statement per job and step. */
    static SharedStatements singleRow(Leases leases, DueClock clock, LeaseScope claiming, IntSupplier replicas) {
        return new SharedStatements(leases, clock, claiming, replicas, false);
    }

    /**
     * {@link Leases#claimSlot} as soon as the database clock reaches {@code slot}, sharing a statement
     * with every claim of that instant made ahead of it; a refused claim moves on to the schedule's next
     * instant without completing (see {@link DueClaims#claim}). Returns at once, the answer to come;
     * sent as single-row statements, each claim waits for its instant and returns answered.
     */
    CompletableFuture<DueAnswer> claimWhenDue(String name, Instant slot, Instants schedule, Runnable refused,
            LeaseScope scope) throws InterruptedException {
        if (shared) {
            return dueClaims.claim(name, slot, schedule, refused, scope);
        }
        if (!clock.awaitDue(slot, scope)) {
            return CompletableFuture.completedFuture(DueAnswer.of(slot, Optional.empty()));
        }
        return CompletableFuture.completedFuture(DueAnswer.claimNow(leases, name, slot));
    }

    /**
     * {@link Leases#claimSlot}, sharing a statement with the claims arriving with it.
     *
     * @throws LeaseDatabaseException the database did not answer for this name
     */
    Optional<Handle> claimSlot(String name, Instant slot) throws InterruptedException {
        return shared ? claims.call(new SlotName(name, slot)) : leases.claimSlot(name, slot);
    }

    /**
     * {@link Handle#finish}, sharing a statement with the rounds ending with this one. Returns at once,
     * the answer to come on the sending thread; sent as a single-row statement, it returns answered.
     * Completes as {@link Handle#finish} returns or throws: normally for a handle known lost (the end
     * recorded without the lease), exceptionally with a {@link LeaseLostException} when the name turned
     * out to be no longer the handle's (the end is recorded without it), or a
     * {@link LeaseDatabaseException} when the database did not answer.
     */
    CompletableFuture<Void> finish(Handle handle, Instant passed) {
        if (!shared) {
            return answeredNow(() -> handle.finish(passed));
        }
        return finishes.submit(new Ending(handle, passed)).thenAccept(finished -> {
            if (!finished) {
                throw new LeaseLostException("lease " + handle.name() + " (term " + handle.term()
                        + ") was lost meanwhile; the round's end is recorded, the name was not given back");
            }
        });
    }

    /**
     * {@link Handle#release}, sharing a statement with the rounds cut short with this one; answered as
     * {@link #finish} is. Completes exceptionally with a {@link LeaseLostException} when the lease was
     * already gone, or a {@link LeaseDatabaseException} when the database did not answer.
     */
    CompletableFuture<Void> release(Handle handle) {
        if (!shared) {
            return answeredNow(handle::release);
        }
        return releases.submit(handle).thenAccept(released -> {
            if (!released) {
                throw new LeaseLostException("lease " + handle.name() + " (term " + handle.term() + ") was already gone at release");
            }
        });
    }

    /**
     * Where what follows a round's finish or release answered goes on, off the thread that answered.
     * Shared statements answer the rounds ending together at once, on their sending thread: those go on
     * one after another on one thread, which only logs and hands in the next claims. A single-row
     * statement is answered on the round's own thread, and what follows may wait there for the job's
     * next instant: a thread per round.
     *
     * @param roundName names the thread of a round that goes on alone
     */
    Executor afterEnd(String roundName) {
        return shared ? endings : Thread.ofVirtual().name(roundName)::start;
    }

    private static CompletableFuture<Void> answeredNow(Runnable statement) {
        try {
            statement.run();
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Claims per instant (the claims gathered are nearly always of one), each statement's rounds
     * starting as soon as it returns.
     */
    private static void claim(Leases leases, List<SlotName> asked, Consumer<BatchResult<SlotName, Optional<Handle>>> part) {
        Map<Instant, List<String>> bySlot = asked.stream().collect(Collectors.groupingBy(SlotName::slot,
                LinkedHashMap::new, Collectors.mapping(SlotName::name, Collectors.toList())));
        bySlot.forEach((slot, names) -> leases.claimSlots(slot, names, r -> {
            Map<SlotName, Optional<Handle>> answered = new HashMap<>();
            Map<SlotName, LeaseDatabaseException> failed = new HashMap<>();
            r.answered().forEach((name, h) -> answered.put(new SlotName(name, slot), h));
            r.failed().forEach((name, e) -> failed.put(new SlotName(name, slot), e));
            part.accept(new BatchResult<>(answered, failed));
        }));
    }

    private static BatchResult<Ending, Boolean> finish(Leases leases, List<Ending> asked) {
        Map<Handle, Instant> passed = new LinkedHashMap<>();
        Map<Handle, Ending> byHandle = new HashMap<>();
        asked.forEach(e -> {
            passed.put(e.handle(), e.passed());
            byHandle.put(e.handle(), e);
        });
        BatchResult<Handle, Boolean> r = leases.finishAll(passed);
        Map<Ending, Boolean> answered = new LinkedHashMap<>();
        Map<Ending, LeaseDatabaseException> failed = new LinkedHashMap<>();
        r.answered().forEach((h, b) -> answered.put(byHandle.get(h), b));
        r.failed().forEach((h, e) -> failed.put(byHandle.get(h), e));
        return new BatchResult<>(answered, failed);
    }
}
