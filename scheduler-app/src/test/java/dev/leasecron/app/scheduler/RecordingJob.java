package dev.leasecron.app.scheduler;

import dev.leasecron.jobs.Job;
import dev.leasecron.jobs.JobContext;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/** A job type that records every round it runs and behaves as the test tells it. */
final class RecordingJob implements Job {
    /** One round as the job saw it. */
    record Round(String job, Instant instant, long term, boolean rerun, String replica) {}

    /** What a round does once recorded. */
    interface Behaviour {
        void run(JobContext context) throws Exception;
    }

    private final ConcurrentLinkedQueue<Round> rounds = new ConcurrentLinkedQueue<>();
    private volatile Behaviour behaviour = context -> {};

    @Override
    public String type() {
        return "recording";
    }

    @Override
    public void run(JobContext context) throws Exception {
        rounds.add(new Round(context.jobName(), context.instant(), context.term(), context.rerun(),
                String.valueOf(context.params().get("replica"))));
        behaviour.run(context);
    }

    void behave(Behaviour b) {
        behaviour = b;
    }

    List<Round> rounds() {
        return List.copyOf(rounds);
    }

    List<Round> rounds(Predicate<Round> which) {
        return rounds.stream().filter(which).toList();
    }
}
