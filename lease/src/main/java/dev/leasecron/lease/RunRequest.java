package dev.leasecron.lease;

import java.time.Instant;
import java.util.Optional;

/**
 * A request to run a job now, outside its schedule. A request is identified by its id: asking again
 * with the same id (a retried HTTP call, the same request sent to two replicas) changes nothing and
 * returns the request already on record, so it runs once.
 *
 * @param id the request's id, chosen by the requester (a UUID by default)
 * @param name the job's lease name
 * @param requestedBy who asked
 * @param requestedAt when the request was recorded, by the database clock
 * @param state how far it got
 * @param instance the replica that claimed it, empty while pending
 * @param term the lease term its round ran under, 0 while pending
 * @param outcome how its round ended ({@link HistoryOutcome#RUNNING} until then, empty while pending)
 */
public record RunRequest(
        String id,
        String name,
        String requestedBy,
        Instant requestedAt,
        RunRequestState state,
        Optional<String> instance,
        long term,
        Optional<HistoryOutcome> outcome) {}
