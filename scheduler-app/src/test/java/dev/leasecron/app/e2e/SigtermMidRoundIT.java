package dev.leasecron.app.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A replica stopped with SIGTERM in the middle of a round that outlasts the shutdown grace: the
 * round is cut short and its lease given back, the other replica reruns the instant within 2 s, and
 * the stopped process exits 0. The same when the signal goes to the replica's whole process group,
 * as Ctrl-C or {@code timeout} send it: the round's shell command, in a session of its own, does not
 * die with the daemon's group but is stopped by the daemon once the grace is over.
 */
class SigtermMidRoundIT {
    @RegisterExtension
    final Replicas replicas = new Replicas();

    @ParameterizedTest(name = "{0}, SIGTERM to the {1}")
    @CsvSource({"postgres, process", "mariadb, process", "postgres, process group", "mariadb, process group"})
    void roundCutShortByShutdownRerunsOnPeerWithinTwoSeconds(String kind, String signalled) {
        MidRound round = MidRound.start(replicas, kind, "sigterm");
        String job = round.job();
        String instant = round.instant();
        ReplicaProcess stopped = round.holder();
        ReplicaProcess peer = round.peer();
        if (signalled.equals("process")) {
            stopped.term();
        } else {
            stopped.termGroup();
        }

        assertEquals(0, stopped.awaitExit(Duration.ofSeconds(60)), "exit code after SIGTERM");
        JsonNode cutShort = single(stopped.events("round.end", job), instant);
        assertEquals("cut_short", cutShort.path("outcome").asText(), "outcome of the round SIGTERM interrupted");
        JsonNode rerun = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> peer.events("round.start", job).stream()
                        .filter(e -> e.path("instant").asText().equals(instant)).findFirst(), Optional::isPresent)
                .orElseThrow();
        assertTrue(rerun.path("rerun").asBoolean(), "the peer's round of " + instant + " is a rerun: " + rerun);
        long delayMs = Duration.between(ReplicaProcess.timestamp(cutShort), ReplicaProcess.timestamp(rerun)).toMillis();
        System.out.printf("%s %s: instant %s cut short on %s, rerun on %s %d ms after its round.end%n",
                getClass().getSimpleName(), kind, instant, stopped.name(), peer.name(), delayMs);
        assertTrue(delayMs >= 0 && delayMs <= 2000, "rerun started " + delayMs + " ms after the cut-short round.end");

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> peer.events("round.end", job).stream().anyMatch(e -> e.path("instant").asText().equals(instant)));
        assertEquals("ok", single(peer.events("round.end", job), instant).path("outcome").asText());
        assertEquals(List.of(instant + " " + stopped.name() + " false started", instant + " " + peer.name() + " true ran"),
                replicas.lines("runs.txt").stream().filter(l -> l.startsWith(instant + " ")).toList());
        assertTrue(stopped.events("daemon.stopped").stream().anyMatch(e -> e.path("clean").asBoolean()),
                "the cut-short round wound down within the shutdown: " + stopped.events("daemon.stopped"));
    }

    private static JsonNode single(List<JsonNode> events, String instant) {
        List<JsonNode> matching = events.stream().filter(e -> e.path("instant").asText().equals(instant)).toList();
        assertEquals(1, matching.size(), "entries for " + instant + ": " + matching);
        return matching.getFirst();
    }
}
