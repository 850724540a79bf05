package dev.leasecron.app.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Three replicas, one job every second: every instant runs exactly once, and over the minute after
 * all three have started none is missing and the terms grow with the instants. Six more jobs every
 * second show the rounds spread over the replicas: a replica claims a job it lost to another a little
 * after the instant, but a replica short of its share of the jobs contests some at the instant, so
 * every replica ends up running rounds.
 */
class ThreeReplicasIT {
    private static final int WANTED = 60;
    private static final int SPREAD_JOBS = 6;

    @RegisterExtension
    final Replicas replicas = new Replicas();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void everyInstantRunsExactlyOnceAcrossThreeReplicas(String kind) {
        TestDatabase db = TestDatabases.of(kind);
        String job = Replicas.uniqueJob("three");
        StringBuilder spreadJobs = new StringBuilder();
        for (int i = 0; i < SPREAD_JOBS; i++) {
            spreadJobs.append("""
                    - name: %s
                      schedule: "* * * * * *"
                      type: shell
                      params:
                        command: echo "$REPLICA" >> spread.txt
                    """.formatted(Replicas.uniqueJob("spread")));
        }
        Path config = replicas.jobsFile("1s", """
                - name: %s
                  schedule: "* * * * * *"
                  type: shell
                  timeout: 30s
                  params:
                    command: echo "$LEASECRON_INSTANT $LEASECRON_TERM $REPLICA $LEASECRON_RERUN" >> runs.txt
                """.formatted(job) + spreadJobs);
        List<ReplicaProcess> three = List.of("a", "b", "c").stream().map(name -> replicas.start(name, db, config)).toList();

        // The window opens once all three have started (and read where the schedule stands): before that,
        // fewer replicas share the instants.
        Instant allUp = await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                .until(() -> three.stream().map(r -> r.events("daemon.started")).toList(), s -> s.stream().noneMatch(List::isEmpty))
                .stream().map(s -> ReplicaProcess.timestamp(s.getFirst())).max(Instant::compareTo).orElseThrow();
        Instant windowStart = allUp.truncatedTo(ChronoUnit.SECONDS).plusSeconds(3);
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> replicas.lines("runs.txt").stream().map(Run::parse).filter(r -> !r.instant().isBefore(windowStart))
                        .count() >= WANTED);

        List<Run> runs = replicas.lines("runs.txt").stream().map(Run::parse).toList();
        Map<Instant, List<Run>> byInstant = runs.stream()
                .collect(Collectors.groupingBy(Run::instant, TreeMap::new, Collectors.toList()));
        byInstant.forEach((instant, r) -> assertEquals(1, r.size(), "runs of " + instant + ": " + r));
        assertTrue(runs.stream().noneMatch(Run::rerun), "no round was cut short, so none is a rerun: " + runs);

        List<Instant> all = new ArrayList<>(byInstant.keySet());
        List<Instant> instants = all.stream().filter(i -> !i.isBefore(windowStart)).toList();
        Instant first = instants.getFirst();
        Instant last = instants.getLast();
        assertEquals(windowStart, first, "the first instant once all three replicas are up");
        assertEquals(Duration.between(first, last).toSeconds() + 1, instants.size(),
                "every instant from " + first + " to " + last + " ran: " + instants);
        assertTrue(instants.size() >= 60, "at least 60 consecutive instants: " + instants.size());
        long gapsBefore = Duration.between(all.getFirst(), first).toSeconds() - (all.size() - instants.size());

        List<Long> terms = instants.stream().map(i -> byInstant.get(i).getFirst().term()).toList();
        for (int i = 1; i < terms.size(); i++) {
            assertTrue(terms.get(i) > terms.get(i - 1), "term " + terms.get(i) + " of " + instants.get(i)
                    + " after term " + terms.get(i - 1) + " of " + instants.get(i - 1));
        }
        Map<String, Long> perReplica = runs.stream().collect(Collectors.groupingBy(Run::replica, TreeMap::new,
                Collectors.counting()));
        Map<String, Long> spread = replicas.lines("spread.txt").stream().map(String::trim)
                .collect(Collectors.groupingBy(r -> r, TreeMap::new, Collectors.counting()));
        System.out.printf("%s %s: %d instants %s..%s with all three up, terms %d..%d, rounds per replica %s"
                + " (the other %d jobs: %s); before: %d instants from %s, %d missing%n", getClass().getSimpleName(), kind,
                instants.size(), first, last, terms.getFirst(), terms.getLast(), perReplica, SPREAD_JOBS, spread,
                all.size() - instants.size(), all.getFirst(), gapsBefore);
        Map<String, Long> allJobs = new TreeMap<>(spread);
        perReplica.forEach((replica, count) -> allJobs.merge(replica, count, Long::sum));
        assertEquals(3, allJobs.size(), "rounds ran on every replica: " + allJobs);
    }

    record Run(Instant instant, long term, String replica, boolean rerun) {
        static Run parse(String line) {
            String[] f = line.trim().split(" ");
            return new Run(Instant.parse(f[0]), Long.parseLong(f[1]), f[2], Boolean.parseBoolean(f[3]));
        }
    }
}
