package dev.leasecron.lease;

import dev.leasecron.lease.sql.FreeSlotClaim;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The claims of one instant for a set of names, made ready ahead of the instant by
 * {@link Leases#prepareSlotClaims}: names validated, tokens minted and, where the claim is one
 * statement, the statement built. Nothing is claimed until {@link #send}, which has only the
 * statements themselves left to run, so the claims leave the moment the instant comes. Sent at most
 * once: its tokens are never used for a second claim.
 */
public final class SlotClaims {
    /** Up to {@link Leases#MAX_BATCH} names, in name order, and their statement when it is one, built. */
    record Chunk(List<String> names, long slotMs, FreeSlotClaim free) {}

    private final List<Chunk> chunks;
    private final Function<Chunk, BatchResult<String, Optional<Handle>>> claim;
    private final AtomicBoolean sent = new AtomicBoolean();

    SlotClaims(List<Chunk> chunks, Function<Chunk, BatchResult<String, Optional<Handle>>> claim) {
        this.chunks = List.copyOf(chunks);
        this.claim = claim;
    }

    /**
     * Claims the instant for every name, as {@link Leases#claimSlots(java.time.Instant, java.util.Collection, Consumer)}
     * does: one statement per {@link Leases#MAX_BATCH} names, each statement's names handed over as
     * soon as it has returned. Every name is in exactly one part.
     *
     * @param part called once per statement, on the calling thread, with its names' handles or failure
     * @throws IllegalStateException sent before
     */
    public void send(Consumer<BatchResult<String, Optional<Handle>>> part) {
        if (!sent.compareAndSet(false, true)) {
            throw new IllegalStateException("these claims were sent already");
        }
        if (chunks.isEmpty()) {
            return;
        }
        // Replicas claiming the same names start at different chunks, so each wins a share early
        // instead of all queueing on the first chunk's rows.
        int first = ThreadLocalRandom.current().nextInt(chunks.size());
        for (int i = 0; i < chunks.size(); i++) {
            part.accept(claim.apply(chunks.get((first + i) % chunks.size())));
        }
    }
}
