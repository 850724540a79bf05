package dev.leasecron.app.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SchedulerSettingsTest {
    @Test
    void theDefaultsAreWhatTheDaemonLogsAtStart() {
        assertEquals(250L, SchedulerSettings.DEFAULTS.describe().get("put_off_ms"));
        assertEquals(5L, SchedulerSettings.DEFAULTS.describe().get("ending_window_ms"));
        assertEquals(86_400_000L, SchedulerSettings.DEFAULTS.describe().get("catch_up_window_ms"));
        assertEquals(2, SchedulerSettings.DEFAULTS.describe().get("sweeps_per_retry_interval"));
    }

    @Test
    void aNegativeDurationOrANonPositivePeriodIsRefusedByName() {
        Duration s = Duration.ofSeconds(1);
        assertEquals("putOff must not be negative, not PT-1S", assertThrows(IllegalArgumentException.class,
                () -> new SchedulerSettings(s.negated(), s, s, s, s, 1)).getMessage());
        assertEquals("censusEvery must be positive, not PT0S", assertThrows(IllegalArgumentException.class,
                () -> new SchedulerSettings(s, s, s, Duration.ZERO, s, 1)).getMessage());
        assertEquals("sweepsPerRetryInterval must be at least 1, not 0", assertThrows(IllegalArgumentException.class,
                () -> new SchedulerSettings(s, s, s, s, s, 0)).getMessage());
    }
}
