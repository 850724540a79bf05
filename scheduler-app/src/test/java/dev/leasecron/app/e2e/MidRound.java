package dev.leasecron.app.e2e;

import static org.awaitility.Awaitility.await;

import dev.leasecron.lease.testing.TestDatabases;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Two replicas with the fast lease timings and a job every 10 s whose first round hangs: the round in
 * whose middle a test stops its replica (the shutdown grace is 1 s, shorter than the round). Every 10 s, so the lease of a stopped round expires, and its
 * rerun runs, before the next instant comes and would give it up.
 *
 * @param job the job's name
 * @param instant the instant of the hanging round, as its command wrote it
 * @param holder the replica running that round
 * @param peer the other replica
 */
record MidRound(String job, String instant, ReplicaProcess holder, ReplicaProcess peer) {
    /**
     * The first round (not a rerun) says it started and then sleeps past the test; every other
     * round, the rerun included, says it ran and ends at once.
     */
    private static final String FIRST_ROUND_SLEEPS = """
            if [ "$LEASECRON_RERUN" = false ] && mkdir first-round.lock 2>/dev/null; then
              echo "$LEASECRON_INSTANT $REPLICA $LEASECRON_RERUN started" >> runs.txt
              sleep 120
            fi
            echo "$LEASECRON_INSTANT $REPLICA $LEASECRON_RERUN ran" >> runs.txt
            """;

    /** Starts both replicas on {@code kind}'s database and waits until one of them runs the hanging round. */
    static MidRound start(Replicas replicas, String kind, String jobPrefix) {
        String job = Replicas.uniqueJob(jobPrefix);
        Path config = replicas.jobsFile("1s", """
                - name: %s
                  schedule: "*/10 * * * * *"
                  type: shell
                  timeout: 5m
                  params:
                    command: |
                %s""".formatted(job, FIRST_ROUND_SLEEPS.indent(6)));
        var db = TestDatabases.of(kind);
        // Each replica leads a process group of its own, which a test may signal as a whole.
        List<String> ownGroup = List.of("setsid");
        Map<String, ReplicaProcess> byName = Map.of(
                "a", replicas.start("a", db, config, Map.of(), ownGroup, "--lease-timings-ms", Replicas.FAST_TIMINGS),
                "b", replicas.start("b", db, config, Map.of(), ownGroup, "--lease-timings-ms", Replicas.FAST_TIMINGS));
        String started = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> replicas.lines("runs.txt").stream().filter(l -> l.endsWith(" started")).findFirst(),
                        Optional::isPresent).orElseThrow();
        ReplicaProcess holder = byName.get(started.split(" ")[1]);
        ReplicaProcess peer = byName.values().stream().filter(r -> r != holder).findFirst().orElseThrow();
        return new MidRound(job, started.split(" ")[0], holder, peer);
    }
}
