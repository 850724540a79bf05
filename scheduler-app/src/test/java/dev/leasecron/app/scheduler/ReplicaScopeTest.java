package dev.leasecron.app.scheduler;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A job of {@code scope: replica} runs every instant on every replica, without a lease. */
class ReplicaScopeTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    private static ScheduledJob onEveryReplica(String name, RecordingJob job, String replica) {
        return new ScheduledJob(name, "cron:" + name, new EveryPeriod(SECOND), job.type(), job,
                Map.of("replica", replica), Duration.ofMinutes(1), true, false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void aReplicaScopedJobRunsEachInstantOnEveryReplica(TestDatabase db) throws Exception {
        String name = uniqueName("every-replica");
        RecordingJob job = new RecordingJob();
        try (Replica a = new Replica(db, TestTimings.FAST).start(onEveryReplica(name, job, "a"));
                Replica b = new Replica(db, TestTimings.FAST).start(onEveryReplica(name, job, "b"))) {
            await().atMost(Duration.ofSeconds(15)).until(() -> common(job).size() >= 3);
            for (String replica : List.of("a", "b")) {
                List<Instant> ran = job.rounds(r -> r.replica().equals(replica)).stream().map(RecordingJob.Round::instant).toList();
                assertEquals(ran.size(), Set.copyOf(ran).size(), "each instant once per replica: " + ran);
            }
            assertTrue(job.rounds().stream().allMatch(r -> r.term() == 0 && !r.rerun()), "no lease, no rerun: " + job.rounds());
            assertEquals(List.of(), a.leases.views().rows(List.of("cron:" + name)), "nothing claimed: no lease row");
            assertTrue(a.events.stream().allMatch(e -> e.equals("ended " + name + " ok")), a.events.toString());
            assertTrue(b.events.stream().allMatch(e -> e.equals("ended " + name + " ok")), b.events.toString());
        }
    }

    /** The instants both replicas ran. */
    private static Set<Instant> common(RecordingJob job) {
        Set<Instant> onA = job.rounds(r -> r.replica().equals("a")).stream().map(RecordingJob.Round::instant)
                .collect(Collectors.toCollection(TreeSet::new));
        return job.rounds(r -> r.replica().equals("b")).stream().map(RecordingJob.Round::instant)
                .filter(onA::contains).collect(Collectors.toCollection(TreeSet::new));
    }
}
