package dev.leasecron.app.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two replicas whose process clocks are an hour ahead and an hour behind (libfaketime): they fire
 * by the database clock, so each instant runs when it comes, neither early nor late, on both.
 * Each replica has a job of its own, so both skews are sure to be exercised, and they share a third.
 */
class ClockSkewIT {
    private static final Path FAKETIME = Path.of("/usr/bin/faketime");
    private static final Map<String, Duration> SKEWS = Map.of("ahead", Duration.ofHours(1), "behind", Duration.ofHours(-1));
    private static final int ROUNDS_PER_JOB = 6;
    private static final long MAX_FIRE_DELAY_MS = 2500;

    @RegisterExtension
    final Replicas replicas = new Replicas();

    /** When the test first saw each round.start, by its own (true) clock: job + instant -> seen. */
    private final Map<String, Instant> seen = new ConcurrentHashMap<>();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void skewedReplicasFireByTheDatabaseClock(String kind) {
        TestDatabase db = TestDatabases.of(kind);
        assumeFaketime();
        String prefix = Replicas.uniqueJob("skew");
        String shared = prefix + "-shared";
        // ${REPLICA} in the name: each replica's own job; date runs under the replica's skewed clock.
        Path config = replicas.jobsFile("1s", """
                - name: %1$s-${REPLICA}
                  schedule: "* * * * * *"
                  type: shell
                  timeout: 30s
                  params:
                    command: echo "$LEASECRON_JOB $LEASECRON_INSTANT $REPLICA $(date +%%s%%3N)" >> runs.txt
                - name: %2$s
                  schedule: "* * * * * *"
                  type: shell
                  timeout: 30s
                  params:
                    command: echo "$LEASECRON_JOB $LEASECRON_INSTANT $REPLICA $(date +%%s%%3N)" >> runs.txt
                """.formatted(prefix, shared));
        Map<String, ReplicaProcess> byName = new HashMap<>();
        SKEWS.forEach((name, skew) -> byName.put(name, replicas.start(name, db, config,
                // The wall clock only: CLOCK_MONOTONIC an hour back would be before the boot. Without
                // FORCE_MONOTONIC_FIX=0, libfaketime's rework of timed waits makes a JVM start ten times slower.
                Map.of("FAKETIME_DONT_FAKE_MONOTONIC", "1", "FAKETIME_FORCE_MONOTONIC_FIX", "0"),
                List.of(FAKETIME.toString(), "-f", (skew.isNegative() ? "-" : "+") + skew.abs().toHours() + "h"))));

        // The skew is in effect: each replica stamps its log an hour off the test's clock.
        for (var replica : byName.values()) {
            JsonNode started = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> replica.events("daemon.started").stream().findFirst(), java.util.Optional::isPresent)
                    .orElseThrow();
            Duration off = Duration.between(Instant.now(), ReplicaProcess.timestamp(started));
            Duration skew = SKEWS.get(replica.name());
            assertTrue(off.minus(skew).abs().compareTo(Duration.ofMinutes(1)) < 0,
                    replica.name() + " logs " + off + " off the test's clock, expected about " + skew);
        }

        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100)).until(() -> {
            byName.values().forEach(this::noteRoundStarts);
            return byName.keySet().stream().allMatch(name -> countSeen(prefix + "-" + name) >= ROUNDS_PER_JOB)
                    && countSeen(shared) >= ROUNDS_PER_JOB;
        });

        // Never early, never late by the test's (true) clock: a round is seen after its instant, and soon.
        seen.forEach((key, at) -> {
            Instant instant = Instant.parse(key.substring(key.lastIndexOf(' ') + 1));
            long lagMs = Duration.between(instant, at).toMillis();
            assertTrue(lagMs >= 0 && lagMs <= 5_000, key + " seen " + lagMs + " ms after its instant");
        });
        // The replicas' own measure, by the database clock: early is negative, and a clock obeyed an hour
        // off would be an hour off; the bound leaves room for a cold JVM on a loaded machine.
        List<Long> delays = new ArrayList<>();
        for (var replica : byName.values()) {
            for (JsonNode start : replica.events("round.start")) {
                long delay = start.path("fire_delay_ms").asLong();
                assertTrue(delay >= 0 && delay <= MAX_FIRE_DELAY_MS, replica.name() + " fired early or late: " + start);
                delays.add(delay);
            }
        }
        // The commands ran when their instant had come, by the skewed clock minus the skew.
        Map<String, List<Instant>> instantsByJob = new TreeMap<>();
        List<Long> commandLags = new ArrayList<>();
        for (String line : replicas.lines("runs.txt")) {
            String[] f = line.split(" ");
            Instant instant = Instant.parse(f[1]);
            Instant ranAt = Instant.ofEpochMilli(Long.parseLong(f[3])).minus(SKEWS.get(f[2]));
            long lagMs = Duration.between(instant, ranAt).toMillis();
            assertTrue(lagMs >= 0 && lagMs <= 5_000, "command of " + line + " ran " + lagMs + " ms after its instant");
            commandLags.add(lagMs);
            instantsByJob.computeIfAbsent(f[0], j -> new ArrayList<>()).add(instant);
        }
        // A round that overran its second (a slow fork on a loaded machine) skips the next instants, on
        // record: every instant between the first and the last ran, or is inside a logged skip.
        List<JsonNode> skips = byName.values().stream().flatMap(r -> r.events("instant.skipped").stream()).toList();
        instantsByJob.forEach((job, instants) -> {
            assertEquals(instants.size(), instants.stream().distinct().count(), job + " ran an instant twice: " + instants);
            List<Instant> sorted = instants.stream().sorted().toList();
            for (Instant t = sorted.getFirst(); !t.isAfter(sorted.getLast()); t = t.plusSeconds(1)) {
                Instant expected = t;
                boolean skipped = skips.stream().anyMatch(skip -> skip.path("job").asText().equals(job)
                        && !expected.isBefore(Instant.parse(skip.path("first").asText()))
                        && !expected.isAfter(Instant.parse(skip.path("last").asText())));
                assertTrue(sorted.contains(expected) || skipped, job + " missed " + expected + " silently: " + sorted);
            }
        });
        Map<String, Long> sharedBy = replicas.lines("runs.txt").stream().filter(l -> l.startsWith(shared + " "))
                .collect(Collectors.groupingBy(l -> l.split(" ")[2], TreeMap::new, Collectors.counting()));
        System.out.printf("%s %s: %d rounds, fire_delay_ms %d..%d (mean %.0f), command lag %d..%d ms, shared job by %s%n",
                getClass().getSimpleName(), kind, delays.size(), delays.stream().mapToLong(d -> d).min().orElse(-1),
                delays.stream().mapToLong(d -> d).max().orElse(-1), delays.stream().mapToLong(d -> d).average().orElse(-1),
                commandLags.stream().mapToLong(d -> d).min().orElse(-1), commandLags.stream().mapToLong(d -> d).max().orElse(-1),
                sharedBy);
    }

    private void noteRoundStarts(ReplicaProcess replica) {
        Instant now = Instant.now();
        for (JsonNode start : replica.events("round.start")) {
            seen.putIfAbsent(start.path("job").asText() + " " + start.path("instant").asText(), now);
        }
    }

    private long countSeen(String job) {
        return seen.keySet().stream().filter(k -> k.startsWith(job + " ")).count();
    }

    /** libfaketime (Debian package faketime) is a test dependency: missing, it skips locally and fails in CI. */
    private static void assumeFaketime() {
        if (Files.isExecutable(FAKETIME)) {
            return;
        }
        String why = FAKETIME + " is missing: install the Debian package faketime";
        if (Boolean.parseBoolean(System.getenv("LEASECRON_TEST_REQUIRE_SERVERS"))) {
            throw new IllegalStateException(why);
        }
        Assumptions.abort(why);
    }
}
