package dev.leasecron.lease.sql;

/**
 * An instant whose round was cut short, as the find statement saw it: free to claim a second time,
 * or held by a lease about to expire.
 *
 * @param name the name it was claimed under
 * @param term the term read: the claim again holds the row to it
 * @param slotMs the instant
 * @param expiresInMs how long the lease had left by the database clock as the statement read it; 0
 *     or less when it had expired or been released, and the instant was free to claim again
 */
public record FoundUnfinished(String name, long term, long slotMs, long expiresInMs) {
    /** Whether the instant was free to claim a second time when read. */
    public boolean free() {
        return expiresInMs <= 0;
    }
}
