package dev.leasecron.lease.sql;

/**
 * An instant whose round was cut short and that is free to claim a second time, as the find
 * statement saw it.
 *
 * @param name the name it was claimed under
 * @param term the term read: the claim again holds the row to it
 * @param slotMs the instant
 */
public record FoundUnfinished(String name, long term, long slotMs) {}
