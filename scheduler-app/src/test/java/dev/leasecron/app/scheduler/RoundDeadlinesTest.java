package dev.leasecron.app.scheduler;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class RoundDeadlinesTest {
    private final List<String> reached = new CopyOnWriteArrayList<>();

    @Test
    void theOverrunNoticeComesAtItsDeadlineThenTheTimeoutAtIts() {
        RoundDeadlines.start(ms(400), () -> reached.add("timeout"), ms(50), () -> reached.add("overrun"));

        await().atMost(Duration.ofSeconds(5)).until(() -> reached.size() == 2);
        assertEquals(List.of("overrun", "timeout"), reached);
    }

    @Test
    void aNextInstantAfterTheTimeoutIsNeverNoticed() {
        RoundDeadlines.start(ms(50), () -> reached.add("timeout"), ms(300), () -> reached.add("overrun"));

        await().atMost(Duration.ofSeconds(5)).until(() -> reached.equals(List.of("timeout")));
        await().during(ms(600)).atMost(Duration.ofSeconds(2)).until(() -> reached.equals(List.of("timeout")));
    }

    @Test
    void aRoundEndedBeforeEitherDeadlineHearsOfNeither() {
        RoundDeadlines.start(ms(100), () -> reached.add("timeout"), ms(50), () -> reached.add("overrun")).end();

        await().during(ms(400)).atMost(Duration.ofSeconds(2)).until(reached::isEmpty);
    }

    @Test
    void aRoundEndedAfterItsOverrunIsNeverTimedOut() {
        RoundDeadlines deadlines = RoundDeadlines.start(Duration.ofSeconds(1), () -> reached.add("timeout"), ms(20),
                () -> reached.add("overrun"));
        await().pollInterval(ms(5)).atMost(Duration.ofSeconds(5)).until(() -> reached.equals(List.of("overrun")));

        deadlines.end();

        await().during(Duration.ofMillis(1_300)).atMost(Duration.ofSeconds(3)).until(() -> reached.equals(List.of("overrun")));
    }

    @Test
    void aTimeoutAloneComesAtItsDeadline() {
        RoundDeadlines.start(ms(30), () -> reached.add("timeout"));

        await().atMost(Duration.ofSeconds(5)).until(() -> reached.equals(List.of("timeout")));
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }
}
