package dev.leasecron.app.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every instant passed over is logged once, in whatever order the spans holding it are found. */
class JobStateTest {
    private static final Instant T0 = Instant.parse("2026-12-06T12:00:00Z");

    private final RecordingJob recording = new RecordingJob();
    private final JobState state = new JobState(new ScheduledJob("j", "cron:j", new EveryPeriod(Duration.ofSeconds(1)),
            recording.type(), recording, Map.of(), Duration.ofMinutes(1), false, true), null, 0);

    private static Instant t(int seconds) {
        return T0.plusSeconds(seconds);
    }

    private static List<String> spans(List<InstantSpan> spans) {
        return spans.stream().map(s -> s.first().getEpochSecond() - T0.getEpochSecond() + ".."
                + (s.last().getEpochSecond() - T0.getEpochSecond()) + "x" + s.count()).toList();
    }

    @Test
    void aSpanLoggedIsNotLoggedAgain() {
        assertEquals(List.of("1..5x5"), spans(state.unlogged(t(0), t(5))));
        assertEquals(List.of(), spans(state.unlogged(t(0), t(5))));
        assertEquals(List.of("6..8x3"), spans(state.unlogged(t(2), t(8))), "only what is new");
    }

    @Test
    void aGapBeforeASpanLoggedLaterIsStillLogged() {
        // Logged unclaimed first: 11 to 15; then a claim finds the last on record at 4: 5 to 10 are new.
        assertEquals(List.of("11..15x5"), spans(state.unlogged(t(10), t(15))));
        assertEquals(List.of("5..10x6", "16..17x2"), spans(state.unlogged(t(4), t(17))));
        assertEquals(List.of(), spans(state.unlogged(t(4), t(17))));
        assertEquals(List.of("1..4x4"), spans(state.unlogged(t(0), t(17))), "and so on, further back");
    }
}
