package dev.leasecron.lease;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * What operators and the scheduler's census read of the lease table, changing nothing. Reached
 * through {@link Leases#views()}.
 */
public final class LeaseViews {
    private final Leases leases;

    LeaseViews(Leases leases) {
        this.leases = leases;
    }

    /** The rows of {@code names} with the database clock, for operators. */
    public List<LeaseRow> rows(Collection<String> names) {
        return leases.store().reads().rows(names);
    }

    /**
     * The {@linkplain #instance() instances} that claimed, under one of {@code names}, an instant no
     * older than {@code within} by the database clock: the replicas sharing these names lately, as
     * their rows tell it. A replica that stopped is counted until its instants age past
     * {@code within}; one whose names have no instant that recent is not counted. One statement.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public Set<String> claimingInstances(Collection<String> names, Duration within) {
        names.forEach(LeaseName::validate);
        return leases.store().reads().claimingInstances(names, within.toMillis());
    }
}
