package dev.leasecron.app.scheduler;

import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.Leases;
import java.time.Instant;
import java.util.Optional;

/**
 * What a job loop's claim of an instant came to: the instant it was about, and the handle when it was
 * won, or the database's failure when it did not answer for it. Neither: refused, or the loop stopped
 * before the claim was sent.
 */
record DueAnswer(Instant slot, Optional<Handle> won, Optional<LeaseDatabaseException> failure) {

    static DueAnswer of(Instant slot, Optional<Handle> won) {
        return new DueAnswer(slot, won, Optional.empty());
    }

    static DueAnswer failed(Instant slot, LeaseDatabaseException failure) {
        return new DueAnswer(slot, Optional.empty(), Optional.of(failure));
    }

    /** The answer of {@link Leases#claimSlot}, sent now as a statement of its own. */
    static DueAnswer claimNow(Leases leases, String name, Instant slot) {
        try {
            return of(slot, leases.claimSlot(name, slot));
        } catch (LeaseDatabaseException e) {
            return failed(slot, e);
        }
    }
}
