package dev.leasecron.lease;

import dev.leasecron.lease.sql.LeaseStore;
import java.util.Optional;

/**
 * The claim of a name outside any instant ({@link Leases#claim}): taken over when it is free (expired
 * or released), or inserted when it was never claimed; never waiting on a holder.
 */
final class NameClaims {
    private final Leases leases;

    NameClaims(Leases leases) {
        this.leases = leases;
    }

    /** {@link Leases#claim}: the handle when the name was free; empty if held. */
    Optional<Handle> claim(String name) {
        LeaseName.validate(name);
        LeaseStore s = leases.store();
        String holder = Tokens.newHolder();
        long started = System.nanoTime();
        if (s.claim(name, holder, leases.instance()) == 1) {
            // The update moved the term without telling us where to; the holder token finds it.
            long term = s.reads().verify(name, holder).orElseThrow(() ->
                    new LeaseDatabaseException("claimed " + name + " but could not read its term back", null));
            return Optional.of(leases.handle(name, holder, term, started, 0, false, null, 0));
        }
        started = System.nanoTime();
        if (s.insertClaim(name, holder, leases.instance()) == 1) {
            return Optional.of(leases.handle(name, holder, 1, started, 0, false, null, 0));
        }
        return Optional.empty();
    }
}
