package dev.leasecron.lease;

import dev.leasecron.lease.sql.FreeSlotClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The claims of one instant for a set of names, made ready ahead of the instant by
 * {@link Leases#prepareSlotClaims}: names validated, tokens minted and, where the claim is one
 * statement, the statement built. Nothing is claimed until {@link #send}, which has only the
 * statements themselves left to run, so the claims leave the moment the instant comes; or until the
 * {@linkplain #parts parts} are sent, each from a thread of its own. Sent at most once: its tokens are
 * never used for a second claim.
 */
public final class SlotClaims {
    /** Up to {@link Leases#MAX_BATCH} names, in name order, and their statement when it is one, built. */
    record Chunk(List<String> names, long slotMs, FreeSlotClaim free) {}

    private final List<Chunk> chunks;
    private final BiConsumer<Chunk, Consumer<BatchResult<String, Optional<Handle>>>> claim;
    private final AtomicBoolean sent = new AtomicBoolean();

    SlotClaims(List<Chunk> chunks, BiConsumer<Chunk, Consumer<BatchResult<String, Optional<Handle>>>> claim) {
        this.chunks = List.copyOf(chunks);
        this.claim = claim;
    }

    /** The names these claims are for, in the order of their statements. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        chunks.forEach(chunk -> names.addAll(chunk.names()));
        return names;
    }

    /**
     * Claims the instant for every name, as {@link Leases#claimSlots(java.time.Instant, java.util.Collection, Consumer)}
     * does: one statement per {@link Leases#MAX_BATCH} names, each statement's names handed over as
     * soon as it has returned. Every name is in exactly one part.
     *
     * @param part called once per statement, on the calling thread, with its names' handles or failure;
     *     the names a statement passed over because another transaction held them come in a part of
     *     their own, after
     * @throws IllegalStateException sent before, or cut into its parts
     */
    public void send(Consumer<BatchResult<String, Optional<Handle>>> part) {
        takeForSending().forEach(chunk -> claim.accept(chunk, part));
    }

    /**
     * These claims cut into their statements, one part each, for a caller that sends them side by side
     * rather than one after the other; each part is sent with {@link #send}, and these claims no longer
     * can be.
     *
     * @throws IllegalStateException sent before, or cut into its parts
     */
    public List<SlotClaims> parts() {
        return takeForSending().stream().map(chunk -> new SlotClaims(List.of(chunk), claim)).toList();
    }

    /** The chunks, starting at one picked at random; only once. */
    private List<Chunk> takeForSending() {
        if (!sent.compareAndSet(false, true)) {
            throw new IllegalStateException("these claims were sent already");
        }
        if (chunks.isEmpty()) {
            return chunks;
        }
        // Replicas claiming the same names start at different chunks, so each wins a share early
        // instead of all queueing on the first chunk's rows.
        int first = ThreadLocalRandom.current().nextInt(chunks.size());
        List<Chunk> rotated = new ArrayList<>(chunks.subList(first, chunks.size()));
        rotated.addAll(chunks.subList(0, first));
        return rotated;
    }
}
