package dev.leasecron.lease;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * What operators change at run time, stored on the primary database so every replica sees it:
 * suspensions of jobs and requests to run a job now. Reached through {@link Leases#controls()}.
 *
 * <p>Nothing here runs a job: replicas read suspensions and pending requests at every renew interval
 * and act on them through the lease protocol, so a request runs on exactly one replica and a suspension
 * is honoured cluster-wide within one renew interval.
 *
 * <p>Suspensions live in {@code gst_suspensions}, one row per suspended name, its time by the database
 * clock. A suspension does not stop the claims: the replicas go on claiming the job's instants, so each
 * is claimed once and on record, and the one that wins an instant of a suspended job finishes it at once
 * with the history outcome {@link HistoryOutcome#SUSPENDED} instead of running it (see
 * {@link RoundEnd}). A round already running when the job is suspended runs to its end.
 *
 * <p>{@link #suspend} and {@link #resume} write through any connection to the primary database: the
 * command line calls them over a database opened with {@link Leases#openExisting()}, and a suspension
 * creates the table if no replica of this version has started there yet.
 */
public final class JobControls {
    private final Leases leases;

    JobControls(Leases leases) {
        this.leases = leases;
    }

    /**
     * Suspends the job under {@code name}; a job already suspended keeps its first suspension. One
     * statement (and, on a database where no replica of this version has started, the creation of the
     * table and the statement again), so two operators suspending at once
     * leave exactly one suspension, the first one's. {@code by} is cut to 191 UTF-8 bytes and
     * {@code reason} to 500, each with a marker that says so.
     *
     * @param reason why, for the other operators; null or empty when none given
     * @return true if this call suspended it
     * @throws IllegalArgumentException the name cannot be a lease name (see {@link LeaseName})
     * @throws LeaseDatabaseException the database did not answer
     */
    public boolean suspend(String name, String by, String reason) {
        LeaseName.validate(name);
        String who = by == null ? "" : by;
        String why = reason == null ? "" : reason;
        try {
            return leases.store().controls().suspend(name, who, why) == 1;
        } catch (LeaseDatabaseException e) {
            if (!suspensionsMissing()) {
                throw e;
            }
            // A database whose replicas predate suspensions: the first one creates the table.
            leases.store().controls().createSuspensionsIfMissing();
            return leases.store().controls().suspend(name, who, why) == 1;
        }
    }

    /**
     * Resumes the job under {@code name}: its next instant runs. One statement.
     *
     * @return true if it was suspended
     * @throws IllegalArgumentException the name cannot be a lease name (see {@link LeaseName})
     * @throws LeaseDatabaseException the database did not answer
     */
    public boolean resume(String name) {
        LeaseName.validate(name);
        try {
            return leases.store().controls().resume(name) == 1;
        } catch (LeaseDatabaseException e) {
            if (suspensionsMissing()) {
                return false; // no suspension was ever written here
            }
            throw e;
        }
    }

    /**
     * The suspensions among {@code names}, by name; a name not suspended is absent. One statement per
     * {@link Leases#MAX_BATCH} names; none when the table is missing (nothing was ever suspended here).
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public Map<String, Suspension> suspensions(Collection<String> names) {
        Map<String, Suspension> found = new LinkedHashMap<>();
        if (names.isEmpty()) {
            return found;
        }
        try {
            for (List<String> chunk : Batches.chunks(names, Comparator.naturalOrder())) {
                leases.store().controls().suspensions(chunk).forEach(s -> found.put(s.name(), s));
            }
        } catch (LeaseDatabaseException e) {
            // A database where no replica of this version has started (leasecron status reading it) has no table.
            if (suspensionsMissing()) {
                return Map.of();
            }
            throw e;
        }
        return found;
    }

    /**
     * The manual rounds running now among {@code names}, by name: the requests a replica claimed whose
     * round holds the job's lease still, under the term it claimed. A manual round is no instant, so
     * the lease row alone ({@link LeaseRow#unfinishedSlotMs()}) does not show it. One statement per
     * {@link Leases#MAX_BATCH} names; none when the table is missing (nothing was ever requested here).
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public Map<String, RunRequest> runningManualRounds(Collection<String> names) {
        Map<String, RunRequest> found = new LinkedHashMap<>();
        if (names.isEmpty()) {
            return found;
        }
        try {
            for (List<String> chunk : Batches.chunks(names, Comparator.naturalOrder())) {
                leases.store().controls().openRunRequests(chunk).stream()
                        .filter(o -> o.request().state() == RunRequestState.RUNNING && o.leaseLive())
                        .forEach(o -> found.put(o.request().name(), o.request()));
            }
        } catch (LeaseDatabaseException e) {
            if (tableMissing(() -> leases.store().controls().runRequestsExist())) {
                return Map.of();
            }
            throw e;
        }
        return found;
    }

    private boolean suspensionsMissing() {
        return tableMissing(() -> leases.store().controls().suspensionsExist());
    }

    /**
     * Whether a statement failed because the control table {@code exists} asks about is missing, rather
     * than because the database did not answer: the lease table answers and this one does not. A
     * replica reading an empty map while the database is away would run every suspended job.
     */
    private boolean tableMissing(BooleanSupplier exists) {
        try {
            return leases.store().tableExists() && !exists.getAsBoolean();
        } catch (LeaseDatabaseException e) {
            return false;
        }
    }

    /**
     * Records a request to run the job under {@code name} now, once per {@code id}.
     *
     * <p>The request is pending until a replica running the job claims the job's lease for it, which
     * it does once the lease is free (a round running ends first), so it runs on exactly one replica;
     * see {@link ManualRounds}. An id used before, for this job or another, returns the request
     * recorded then and records nothing.
     *
     * @return the request on record under {@code id}: this one, or the one recorded before with that id
     * @throws IllegalArgumentException the name cannot be a lease name, the id is blank or longer than
     *     191 UTF-8 bytes, or the requester longer than that
     * @throws LeaseDatabaseException the database did not answer
     */
    public RunRequest requestRun(String name, String id, String by) {
        LeaseName.validate(name);
        if (id == null || id.isBlank() || id.getBytes(StandardCharsets.UTF_8).length > LeaseName.MAX_BYTES) {
            throw new IllegalArgumentException("a request id has 1 to " + LeaseName.MAX_BYTES + " UTF-8 bytes, not blank");
        }
        String requester = by == null ? "" : by;
        if (requester.getBytes(StandardCharsets.UTF_8).length > LeaseName.MAX_BYTES) {
            throw new IllegalArgumentException("a requester has at most " + LeaseName.MAX_BYTES + " UTF-8 bytes");
        }
        leases.store().controls().insertRunRequest(id, name, requester);
        // Written now or before: the one on record is the answer either way, read back on the same database.
        return leases.store().controls().runRequest(id).orElseThrow(() ->
                new LeaseDatabaseException("recorded run request " + id + " but could not read it back", null));
    }

    /**
     * The request recorded under {@code id}, as far as it got.
     *
     * @throws LeaseDatabaseException the database did not answer
     */
    public Optional<RunRequest> runRequest(String id) {
        return leases.store().controls().runRequest(id);
    }

    /**
     * Deletes at most {@code max} run requests made longer than {@code retain} ago by the database
     * clock, but those running: ended ones, and pending ones no replica took. An id deleted can be
     * used again, and then runs again: ids are remembered for {@code retain}. One statement.
     *
     * @return how many it deleted; fewer than {@code max} means none is left
     * @throws LeaseDatabaseException the database did not answer
     */
    public int purgeRunRequestsOlderThan(Duration retain, int max) {
        return leases.store().controls().purgeRunRequestsOlderThan(retain.toMillis(), max);
    }
}
