package dev.leasecron.lease;

import dev.leasecron.lease.sql.HeldName;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * How batch statements cut and answer what they are given, shared by the statements of handles
 * ({@link Leases}) and of instants ({@link InstantSlots}).
 */
final class Batches {
    private Batches() {}

    static final Comparator<Handle> BY_NAME = Comparator.comparing(Handle::name).thenComparing(Handle::holder);

    static HeldName held(Handle h) {
        return new HeldName(h.name(), h.holder());
    }

    /**
     * {@code items} without repeats, sorted by name, in runs of at most {@link Leases#MAX_BATCH}. Every
     * batch statement is given its rows in name order, so two replicas writing overlapping rows at
     * once (a claim of one among another's renewals or finishes, two claims of the same names) do not
     * take their row locks in opposite orders.
     */
    static <T> List<List<T>> chunks(Collection<T> items, Comparator<T> byName) {
        List<T> distinct = new ArrayList<>(new LinkedHashSet<>(items));
        distinct.sort(byName);
        List<List<T>> chunks = new ArrayList<>();
        for (int from = 0; from < distinct.size(); from += Leases.MAX_BATCH) {
            chunks.add(distinct.subList(from, Math.min(distinct.size(), from + Leases.MAX_BATCH)));
        }
        return chunks;
    }

    /** The entries of {@code found} in the order their keys were given. */
    static <K, V> Map<K, V> inOrder(Collection<K> given, Map<K, V> found) {
        Map<K, V> ordered = new LinkedHashMap<>();
        for (K k : given) {
            if (found.containsKey(k)) {
                ordered.put(k, found.get(k));
            }
        }
        return ordered;
    }
}
