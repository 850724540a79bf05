package dev.leasecron.lease;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a batch call of {@link Leases} found for each of its keys: an answer, or the failure of the
 * statement that was to answer for it. A batch larger than one statement runs as several, each
 * answering for its own keys alone, so a database that fails one of them leaves the others' answers
 * standing; every key given is in exactly one of the two maps.
 *
 * @param <K> a name, or a handle
 * @param <V> what the statement found for it
 * @param answered the answer for each key whose statements answered, in the order given
 * @param failed the failure for each key whose statement did not answer: nothing is known of it, as
 *     after the single-row statement threw the same exception
 */
public record BatchResult<K, V>(Map<K, V> answered, Map<K, LeaseDatabaseException> failed) {

    public BatchResult {
        answered = Collections.unmodifiableMap(new LinkedHashMap<>(answered));
        failed = Collections.unmodifiableMap(new LinkedHashMap<>(failed));
    }

    /**
     * The answer for {@code key}, as the single-row call would have returned it.
     *
     * @throws LeaseDatabaseException the statement for {@code key} did not answer
     * @throws IllegalArgumentException {@code key} was not in the batch
     */
    public V get(K key) {
        LeaseDatabaseException e = failed.get(key);
        if (e != null) {
            throw e;
        }
        V v = answered.get(key);
        if (v == null && !answered.containsKey(key)) {
            throw new IllegalArgumentException(Objects.toString(key) + " was not in the batch");
        }
        return v;
    }

    /** Whether every key was answered. */
    public boolean complete() {
        return failed.isEmpty();
    }
}
