package dev.leasecron.lease;

/**
 * Work that runs under a lease (see {@link Leases#run}). It should return promptly once
 * {@code scope} ends: its thread is interrupted at that moment too.
 *
 * @param <T> what the work returns
 */
@FunctionalInterface
public interface LeaseWork<T> {
    T run(LeaseScope scope) throws Exception;
}
