package dev.leasecron.lease;

/** How far a {@link RunRequest} got. */
public enum RunRequestState {
    /** Recorded, not yet claimed by a replica (the job's lease may be held by a round still running). */
    PENDING,
    /** Claimed by one replica, its round running under the job's lease. */
    RUNNING,
    /** Its round ended; {@link RunRequest#outcome()} says how. */
    ENDED
}
