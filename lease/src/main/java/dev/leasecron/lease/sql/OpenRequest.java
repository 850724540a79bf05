package dev.leasecron.lease.sql;

import dev.leasecron.lease.RunRequest;

/**
 * A run request not yet ended, read with the lease of its job.
 *
 * @param request the request as recorded
 * @param leaseFree whether a manual round could claim the job's lease now: expired or released (or
 *     never claimed), and holding no instant cut short that waits for its rerun
 * @param leaseLive whether the lease is still held under the term the request's round claimed: false
 *     for a running request means its round's replica stopped or lost the lease without recording the end
 */
public record OpenRequest(RunRequest request, boolean leaseFree, boolean leaseLive) {}
