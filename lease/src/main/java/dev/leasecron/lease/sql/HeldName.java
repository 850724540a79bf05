package dev.leasecron.lease.sql;

/**
 * A name with the holder token of one claim of it: what every statement of a handle matches, and
 * what a batch statement reports back per row.
 *
 * @param name the lease name
 * @param holder the token minted for that claim
 */
public record HeldName(String name, String holder) {}
