package dev.leasecron.app.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A replica killed with SIGKILL in the middle of a round: once its lease expires, the instant runs
 * once more on the other replica, as a rerun, and never a third time.
 */
class KillMidRoundIT {
    @RegisterExtension
    final Replicas replicas = new Replicas();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void instantOfKilledReplicaRunsOnceMoreElsewhere(String kind) {
        MidRound round = MidRound.start(replicas, kind, "kill");
        String job = round.job();
        String instant = round.instant();
        ReplicaProcess victim = round.holder();
        ReplicaProcess peer = round.peer();
        Instant killedAt = Instant.now();
        victim.kill();

        JsonNode rerunStart = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> rerunStarts(peer, job, instant).findFirst(), java.util.Optional::isPresent).orElseThrow();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> runsOf(instant).size() == 2);
        // Fifteen sweeps (200 ms each) later, the instant has still run only those two times.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> runsOf(instant).size() == 2);

        assertEquals(List.of(instant + " " + victim.name() + " false started", instant + " " + peer.name() + " true ran"),
                runsOf(instant), "the first round, cut short by the kill, then its rerun on the peer");
        List<JsonNode> starts = peer.events("round.start", job).stream()
                .filter(e -> e.path("instant").asText().equals(instant)).toList();
        assertEquals(1, starts.size(), "round.start of " + instant + " on the peer: " + starts);
        assertTrue(starts.getFirst().path("rerun").asBoolean(), "the peer's round is a rerun");
        List<JsonNode> ends = peer.events("round.end", job).stream()
                .filter(e -> e.path("instant").asText().equals(instant)).toList();
        assertEquals(1, ends.size(), "round.end of " + instant + " on the peer: " + ends);
        assertEquals("ok", ends.getFirst().path("outcome").asText());
        long delayMs = Duration.between(killedAt, ReplicaProcess.timestamp(rerunStart)).toMillis();
        System.out.printf("%s %s: instant %s killed on %s, rerun on %s (term %d) %d ms after the kill%n",
                getClass().getSimpleName(), kind, instant, victim.name(), peer.name(), rerunStart.path("term").asLong(), delayMs);
    }

    private static Stream<JsonNode> rerunStarts(ReplicaProcess replica, String job, String instant) {
        return replica.events("round.start", job).stream()
                .filter(e -> e.path("instant").asText().equals(instant) && e.path("rerun").asBoolean());
    }

    private List<String> runsOf(String instant) {
        return replicas.lines("runs.txt").stream().filter(l -> l.startsWith(instant + " ")).toList();
    }
}
