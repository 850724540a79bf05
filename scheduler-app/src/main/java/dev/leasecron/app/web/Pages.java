package dev.leasecron.app.web;

import java.time.Instant;
import java.util.List;

/** What each page shows; the JSON API carries the same. */
public final class Pages {
    private Pages() {}

    /**
     * {@code /}: every job of the config in force.
     *
     * @param instance the replica serving the page
     * @param now when it was read, by this replica's clock
     * @param errors reads that failed (lease rows, history), each a sentence
     */
    public record JobsPage(String instance, Instant now, List<JobView> jobs, List<String> errors) {
        public String generated() {
            return Texts.utc(now);
        }
    }

    /**
     * {@code /jobs/NAME}: one job and its history as the filter selects it.
     *
     * @param rounds newest first; empty when the history could not be read (see {@code errors})
     * @param actions whether the page offers the admin API's buttons (an admin token is configured)
     */
    public record JobPage(String instance, Instant now, JobView job, RoundFilter filter, List<RoundView> rounds,
            List<String> errors, boolean actions) {

        /** A page without the buttons. */
        public JobPage(String instance, Instant now, JobView job, RoundFilter filter, List<RoundView> rounds,
                List<String> errors) {
            this(instance, now, job, filter, rounds, errors, false);
        }

        /** This page, with or without the buttons. */
        public JobPage withActions(boolean offered) {
            return new JobPage(instance, now, job, filter, rounds, errors, offered);
        }

        /** The job's path under the JSON API, which the buttons post to ({@code /api/v1/jobs/NAME}). */
        public String apiPath() {
            return "/api/v1" + job.path();
        }
        public String generated() {
            return Texts.utc(now);
        }

        /** The outcomes the filter offers, in the vocabulary's order. */
        public List<String> outcomeChoices() {
            return RoundFilter.OUTCOMES;
        }

        public List<Integer> limitChoices() {
            return RoundFilter.LIMITS;
        }
    }

    /** {@code /replicas}: the replicas sharing the jobs, by the lease rows. */
    public record ReplicasPage(String instance, Instant now, Duration window, List<ReplicaView> replicas,
            List<String> errors) {
        public String generated() {
            return Texts.utc(now);
        }

        public String windowText() {
            return Texts.duration(window.value());
        }
    }

    /** The census window, as a record so that a template can name it without java.time imports. */
    public record Duration(java.time.Duration value) {}

    /** A page for a job the config in force does not have. */
    public record NotFound(String instance, Instant now, String job) {
        public String generated() {
            return Texts.utc(now);
        }
    }
}
