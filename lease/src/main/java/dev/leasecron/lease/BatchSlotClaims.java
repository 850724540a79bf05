package dev.leasecron.lease;

import dev.leasecron.lease.sql.FreeSlotClaim;
import dev.leasecron.lease.sql.LeaseStore;
import dev.leasecron.lease.sql.SlotClaim;
import dev.leasecron.lease.sql.SlotOutcome;
import dev.leasecron.lease.sql.SlotRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The claims of one instant for many names, in batch statements of at most {@link Leases#MAX_BATCH}
 * names ({@link InstantSlots#claimSlots}): the names validated, the tokens minted and, where the claim
 * is one statement, the statement built, then each statement sent and its names handed over as soon
 * as it returns.
 *
 * <p>Per {@link Leases#MAX_BATCH} names it takes one read of all their rows, one write guarded row by
 * row by the term and slots read (read again and written again, for the rows another claim or a
 * finish changed in between, up to the tries a single claim makes) and one insert for the names
 * with no row yet; on PostgreSQL the read and the write are one statement, whose read locks the
 * free rows in name order and whose write takes exactly those, so nothing comes between them and
 * nothing is read again. That statement passes over the rows another transaction holds rather than
 * wait for them, so replicas claiming the same instant at once each take the rows the others have
 * not locked yet; the rows passed over are claimed by a second statement, which waits for their
 * locks and sees what held them (another replica's claim, or a round's end or renewal). The names
 * are cut into statements in sorted order whatever the order given, so replicas claiming the same
 * names do not lock their rows in opposite orders; a deadlock the database still finds rolls its
 * statement back and lands in the failed map, to be tried again like any failure. Each call starts
 * at a statement picked at random and goes round: replicas claiming the same instant at once then
 * often write different rows instead of queueing on the same ones, and its rounds spread over them.
 */
final class BatchSlotClaims {
    /** Up to {@link Leases#MAX_BATCH} names, in name order, and their statement when it is one, built. */
    record Chunk(List<String> names, long slotMs, FreeSlotClaim free) {}

    private final Leases leases;
    private final List<Chunk> chunks = new ArrayList<>();

    /** @throws IllegalArgumentException a name cannot be held (see {@link LeaseName}) */
    BatchSlotClaims(Leases leases, Instant slot, Collection<String> names) {
        this.leases = leases;
        names.forEach(LeaseName::validate);
        long slotMs = InstantSlots.slotMillis(slot);
        LeaseStore s = leases.store();
        for (List<String> chunk : Batches.chunks(names, Comparator.naturalOrder())) {
            chunks.add(new Chunk(chunk, slotMs,
                    s.claimsInOneStatement() ? s.prepareFreeSlots(mint(chunk), leases.instance(), slotMs, true) : null));
        }
    }

    /**
     * Claims the instant for every name: one statement per chunk, starting at one picked at random,
     * each statement's names handed over as soon as it has returned. Every name is in exactly one part.
     *
     * @param part called once per statement, on the calling thread, with its names' handles or failure;
     *     the names a statement passed over because another transaction held them come in a part of
     *     their own, after
     */
    void send(Consumer<BatchResult<String, Optional<Handle>>> part) {
        if (chunks.isEmpty()) {
            return;
        }
        // Replicas claiming the same names start at different chunks, so each wins a share early
        // instead of all queueing on the first chunk's rows.
        int first = ThreadLocalRandom.current().nextInt(chunks.size());
        for (int i = 0; i < chunks.size(); i++) {
            claimChunk(chunks.get((first + i) % chunks.size()), part);
        }
    }

    private static Map<String, String> mint(List<String> names) {
        Map<String, String> tokens = new LinkedHashMap<>();
        names.forEach(name -> tokens.put(name, Tokens.newHolder()));
        return tokens;
    }

    /**
     * Claims a chunk's names, answering them in one part, or in two where the claim skipped rows
     * another transaction held: those are claimed again once the first part is handed over, this time
     * waiting for the lock, since what holds a row may be a round's end or a renewal rather than a
     * claim of this instant, and the instant must not be refused for it.
     */
    private void claimChunk(Chunk chunk, Consumer<BatchResult<String, Optional<Handle>>> part) {
        LeaseStore s = leases.store();
        long slotMs = chunk.slotMs();
        Map<String, String> skipped = new LinkedHashMap<>();
        part.accept(claimPart(chunk.names(), skipped.keySet(), slotMs, answered -> chunk.free() != null
                ? claimFree(s, slotMs, chunk.free(), answered, skipped)
                : readThenClaim(s, slotMs, chunk.names(), answered)));
        if (!skipped.isEmpty()) {
            FreeSlotClaim waiting = s.prepareFreeSlots(skipped, leases.instance(), slotMs, false);
            // A claim that waits for the locks it meets skips nothing.
            part.accept(claimPart(List.copyOf(skipped.keySet()), Set.of(), slotMs,
                    answered -> claimFree(s, slotMs, waiting, answered, new HashMap<>())));
        }
    }

    /**
     * One part of a chunk's claim: {@code claim} answers names and returns those with no row yet, each
     * with its token, which are inserted. When a statement fails, its failure is the answer of every
     * name of {@code names} not answered yet and not {@code deferred} to a part of its own.
     */
    private BatchResult<String, Optional<Handle>> claimPart(List<String> names, Set<String> deferred, long slotMs,
            Function<Map<String, Optional<Handle>>, Map<String, String>> claim) {
        LeaseStore s = leases.store();
        Map<String, Optional<Handle>> answered = new HashMap<>();
        Map<String, LeaseDatabaseException> failed = new HashMap<>();
        try {
            Map<String, String> fresh = claim.apply(answered);
            if (!fresh.isEmpty()) {
                long started = System.nanoTime();
                Set<String> inserted = s.insertSlots(fresh, leases.instance(), slotMs);
                // A name nobody had claimed is decided by its insert, as in claimSlot: no second try.
                fresh.forEach((name, holder) -> answered.put(name, inserted.contains(name)
                        ? Optional.of(leases.handle(name, holder, 1, started, slotMs, false, null, 0))
                        : Optional.empty()));
            }
        } catch (LeaseDatabaseException e) {
            names.stream().filter(name -> !answered.containsKey(name) && !deferred.contains(name))
                    .forEach(name -> failed.put(name, e));
        }
        return new BatchResult<>(answered, failed);
    }

    /**
     * The claim of a chunk as one statement whose read locks what it writes, built ahead: each name with
     * a row is answered by it, but for the rows it {@linkplain SlotOutcome#skipped skipped}, which go
     * into {@code skipped} with their tokens. Returns the names with no row yet, each with its token,
     * for the insert.
     */
    private Map<String, String> claimFree(LeaseStore s, long slotMs, FreeSlotClaim free,
            Map<String, Optional<Handle>> answered, Map<String, String> skipped) {
        Map<String, String> tokens = free.tokens();
        long started = System.nanoTime();
        Map<String, SlotOutcome> outcomes = s.claimFreeSlots(free);
        outcomes.values().stream().mapToLong(o -> o.read().nowMs()).max()
                .ifPresent(ms -> leases.clock().observe(ms, System.nanoTime()));
        Map<String, String> fresh = new LinkedHashMap<>();
        tokens.forEach((name, holder) -> {
            SlotOutcome o = outcomes.get(name);
            if (o == null) {
                fresh.put(name, holder);
            } else if (o.skipped()) {
                skipped.put(name, holder);
            } else {
                answered.put(name, o.claimed() ? Optional.of(leases.slots().slotHandle(name, holder, started, slotMs, o.read()))
                        : Optional.empty());
            }
        });
        return fresh;
    }

    /**
     * The claim of {@code chunk} as a read of its rows and a write guarded by what was read, read and
     * written again for the rows that changed in between, up to the tries a single claim makes. Returns
     * the names with no row yet, each with its token, for the insert.
     */
    private Map<String, String> readThenClaim(LeaseStore s, long slotMs, List<String> chunk,
            Map<String, Optional<Handle>> answered) {
        Map<String, String> fresh = new LinkedHashMap<>();
        List<String> pending = chunk;
        for (int attempt = 0; attempt < InstantSlots.SLOT_CLAIM_TRIES && !pending.isEmpty(); attempt++) {
            Map<String, SlotRow> rows = s.readSlots(pending);
            rows.values().stream().mapToLong(SlotRow::nowMs).max()
                    .ifPresent(ms -> leases.clock().observe(ms, System.nanoTime()));
            List<SlotClaim> free = new ArrayList<>();
            for (String name : pending) {
                SlotRow row = rows.get(name);
                if (row == null) {
                    fresh.put(name, Tokens.newHolder());
                } else if (row.expired() && slotMs > row.slotMs()) {
                    free.add(new SlotClaim(name, Tokens.newHolder(), row));
                } else {
                    answered.put(name, Optional.empty());
                }
            }
            List<String> missed = new ArrayList<>();
            if (!free.isEmpty()) {
                long started = System.nanoTime();
                Set<String> claimed = s.claimSlots(free, leases.instance(), slotMs);
                for (SlotClaim c : free) {
                    if (claimed.contains(c.name())) {
                        answered.put(c.name(), Optional.of(leases.slots().slotHandle(c.name(), c.holder(), started, slotMs, c.read())));
                    } else {
                        missed.add(c.name()); // someone claimed first, or a round finished: read again
                    }
                }
            }
            pending = missed;
        }
        pending.forEach(name -> answered.put(name, Optional.empty()));
        return fresh;
    }
}
