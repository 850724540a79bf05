package dev.leasecron.app.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Three replicas, one job every second: over a minute, every instant runs exactly once, none is
 * missing, and the terms grow with the instants.
 */
class ThreeReplicasIT {
    private static final int WANTED = 62;

    @RegisterExtension
    final Replicas replicas = new Replicas();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void everyInstantRunsExactlyOnceAcrossThreeReplicas(String kind) {
        TestDatabase db = TestDatabases.of(kind);
        String job = Replicas.uniqueJob("three");
        Path config = replicas.jobsFile("1s", """
                - name: %s
                  schedule: "* * * * * *"
                  type: shell
                  timeout: 30s
                  params:
                    command: echo "$LEASECRON_INSTANT $LEASECRON_TERM $REPLICA $LEASECRON_RERUN" >> runs.txt
                """.formatted(job));
        for (String name : List.of("a", "b", "c")) {
            replicas.start(name, db, config);
        }

        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> replicas.lines("runs.txt").size() >= WANTED);

        List<Run> runs = replicas.lines("runs.txt").stream().map(Run::parse).toList();
        Map<Instant, List<Run>> byInstant = runs.stream()
                .collect(Collectors.groupingBy(Run::instant, TreeMap::new, Collectors.toList()));
        byInstant.forEach((instant, r) -> assertEquals(1, r.size(), "runs of " + instant + ": " + r));
        assertTrue(runs.stream().noneMatch(Run::rerun), "no round was cut short, so none is a rerun: " + runs);

        List<Instant> instants = new ArrayList<>(byInstant.keySet());
        Instant first = instants.getFirst();
        Instant last = instants.getLast();
        assertEquals(Duration.between(first, last).toSeconds() + 1, instants.size(),
                "every instant from " + first + " to " + last + " ran: " + instants);
        assertTrue(instants.size() >= 60, "at least 60 consecutive instants: " + instants.size());

        List<Long> terms = byInstant.values().stream().map(r -> r.getFirst().term()).toList();
        for (int i = 1; i < terms.size(); i++) {
            assertTrue(terms.get(i) > terms.get(i - 1), "term " + terms.get(i) + " of " + instants.get(i)
                    + " after term " + terms.get(i - 1) + " of " + instants.get(i - 1));
        }
        Map<String, Long> perReplica = runs.stream().collect(Collectors.groupingBy(Run::replica, TreeMap::new,
                Collectors.counting()));
        System.out.printf("%s %s: %d instants %s..%s, terms %d..%d, rounds per replica %s%n", getClass().getSimpleName(),
                kind, instants.size(), first, last, terms.getFirst(), terms.getLast(), perReplica);
        assertTrue(perReplica.size() >= 2, "rounds ran on more than one replica: " + perReplica);
    }

    record Run(Instant instant, long term, String replica, boolean rerun) {
        static Run parse(String line) {
            String[] f = line.trim().split(" ");
            return new Run(Instant.parse(f[0]), Long.parseLong(f[1]), f[2], Boolean.parseBoolean(f[3]));
        }
    }
}
