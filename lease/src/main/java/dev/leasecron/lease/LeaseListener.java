package dev.leasecron.lease;

import java.time.Duration;

/**
 * Hears what held leases meet, for counting it (metrics); logging goes to the holder's own logger.
 * Methods run on the lease's own threads and must not block. The default methods do nothing.
 */
public interface LeaseListener {

    /** A renewal attempt failed or did not answer in time; the lease is not lost yet. */
    default void renewFailed(Handle handle, Throwable cause) {}

    /** The lease is known lost; the work's scope ends now. */
    default void lost(Handle handle, String reason) {}

    /** Work under a lost lease did not return within the step-down grace; the process fails next. */
    default void wouldNotStop(Handle handle, Duration grace) {}

    /**
     * A statement writing the round history failed; the rounds and leases it concerned are unaffected
     * (a finish or release it shared a transaction with ran again alone). Called once per statement.
     */
    default void historyFailed(LeaseDatabaseException cause) {}

    /** Hears nothing. */
    LeaseListener NONE = new LeaseListener() {};
}
