package dev.leasecron.lease;

import java.nio.charset.StandardCharsets;

/**
 * The names a lease can be held under.
 *
 * <p>A name is stored in a column 191 bytes wide, counted in UTF-8 bytes. A name that does not fit
 * could never be claimed: MySQL would truncate it on the claim's insert (so two names could share a
 * row) and PostgreSQL would refuse it, every time. Callers check their names when they start, so a
 * bad name fails start-up instead of leaving work that silently never runs; every claim checks again,
 * so no path reaches the table with a name it cannot hold.
 */
public final class LeaseName {
    /** The width of the {@code name} column, in UTF-8 bytes. */
    public static final int MAX_BYTES = 191;

    private LeaseName() {}

    /**
     * Checks that {@code name} can be a lease name: not null, not empty, at most {@link #MAX_BYTES}
     * UTF-8 bytes.
     *
     * @throws IllegalArgumentException naming the problem and the name's byte length
     */
    public static void validate(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("lease name is empty");
        }
        // A char is at most 3 bytes in UTF-8 (a surrogate pair, two chars, 4): a short name needs no
        // count, and the names of every job are checked again on each sweep.
        if (name.length() * 3 <= MAX_BYTES) {
            return;
        }
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw new IllegalArgumentException(
                    "lease name is " + bytes + " bytes in UTF-8; at most " + MAX_BYTES + " fit the name column");
        }
    }
}
