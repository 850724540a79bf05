package dev.leasecron.app.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One replica, a job every second whose first round takes 3.5 s: the instants it overran are logged
 * as skipped, with their count, and none of them runs late; the schedule goes on with the first
 * instant after the round's end.
 */
class OverrunIT {
    @RegisterExtension
    final Replicas replicas = new Replicas();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void overrunInstantsAreSkippedNotRunLate(String kind) {
        TestDatabase db = TestDatabases.of(kind);
        String job = Replicas.uniqueJob("overrun");
        Path config = replicas.jobsFile("1s", """
                - name: %s
                  schedule: "* * * * * *"
                  type: shell
                  timeout: 1m
                  params:
                    command: |
                      if mkdir first-round.lock 2>/dev/null; then
                        sleep 3.5
                        echo "$LEASECRON_INSTANT long $(date +%%s%%3N)" >> runs.txt
                      else
                        echo "$LEASECRON_INSTANT short $(date +%%s%%3N)" >> runs.txt
                      fi
                """.formatted(job));
        ReplicaProcess replica = replicas.start("solo", db, config);

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> replica.events("round.end", job).size() >= 3);

        List<JsonNode> starts = replica.events("round.start", job);
        List<JsonNode> ends = replica.events("round.end", job);
        JsonNode longRound = ends.getFirst();
        Instant overran = ReplicaProcess.instant(longRound);
        assertEquals("ok", longRound.path("outcome").asText(), "the long round ran to its end: " + longRound);
        assertTrue(longRound.path("duration_ms").asLong() >= 3500, "the long round took 3.5 s: " + longRound);
        assertEquals(1, replica.events("round.overrun", job).size(), "overrun warning: " + replica.events("round.overrun", job));

        List<JsonNode> skipped = replica.events("instant.skipped", job);
        assertEquals(1, skipped.size(), "instant.skipped entries: " + skipped);
        Instant first = Instant.parse(skipped.getFirst().path("first").asText());
        Instant last = Instant.parse(skipped.getFirst().path("last").asText());
        Instant next = Instant.parse(skipped.getFirst().path("next_instant").asText());
        long count = skipped.getFirst().path("count").asLong();
        assertEquals(overran.plusSeconds(1), first, "first skipped instant");
        assertEquals(Duration.between(first, last).toSeconds() + 1, count, "count of " + first + ".." + last);
        assertTrue(count >= 3, "a 3.5 s round overruns at least 3 instants of a job every second: " + count);
        assertEquals(last.plusSeconds(1), next, "next instant");

        List<Instant> started = starts.stream().map(ReplicaProcess::instant).toList();
        assertTrue(started.stream().noneMatch(i -> !i.isBefore(first) && !i.isAfter(last)),
                "no skipped instant " + first + ".." + last + " ran: " + started);
        assertEquals(next, started.get(1), "the round after the long one");
        List<String> runs = replicas.lines("runs.txt");
        assertTrue(runs.getFirst().startsWith(overran + " long "), "runs: " + runs);
        Instant longEnded = Instant.ofEpochMilli(Long.parseLong(runs.getFirst().split(" ")[2]));
        assertTrue(next.isAfter(longEnded), "the next round's instant " + next + " comes after the long round ended at "
                + longEnded + ": nothing ran late");
        long nextDelay = starts.get(1).path("fire_delay_ms").asLong();
        assertTrue(nextDelay >= 0 && nextDelay <= 2500, "the next round fired on time: " + starts.get(1));
        System.out.printf("%s %s: round of %s took %d ms, skipped %d instants %s..%s, next round %s fired %d ms late%n",
                getClass().getSimpleName(), kind, overran, longRound.path("duration_ms").asLong(), count, first, last, next,
                nextDelay);
    }
}
