package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a reader can still use of a jobs file with mistakes: the sound sections and jobs. */
class UsableConfigTest {
    private static final ConfigLoader LOADER = new ConfigLoader(Map.of("HOSTNAME", "replica-7"), JobTypeChecker.acceptAny());

    @Test
    void aMistakeInOneJobLeavesTheOthersAndTheDatabase(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), """
                database:
                  url: jdbc:postgresql://db:5432/leases
                jobs:
                  - name: nightly
                    schedule: "@daily"
                    type: shell
                  - name: broken
                    schedule: "61 * * * *"
                    type: shell
                  - name: hourly
                    schedule: "@hourly"
                    type: shell
                """);

        UsableConfig usable = LOADER.loadUsable(file);

        assertEquals("jdbc:postgresql://db:5432/leases", usable.database().orElseThrow().primary().url());
        assertEquals(List.of("nightly", "hourly"), usable.jobs().stream().map(JobSpec::name).toList());
        assertEquals(1, usable.errors().size(), usable.errors()::toString);
        assertTrue(usable.errors().getFirst().toString().startsWith(file + ":8:"), usable.errors()::toString);
    }

    @Test
    void aBrokenDatabaseSectionLeavesNoDatabase(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), """
                database:
                  url: 5
                jobs: []
                """);

        UsableConfig usable = LOADER.loadUsable(file);

        assertTrue(usable.database().isEmpty());
        assertEquals(1, usable.errors().size(), usable.errors()::toString);
    }

    @Test
    void aSoundFileIsAllUsable(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("jobs.yaml"), "jobs:\n  - {name: a, schedule: \"@daily\", type: shell}\n");

        UsableConfig usable = LOADER.loadUsable(file);

        assertEquals(LOADER.load(file).database(), usable.database().orElseThrow());
        assertEquals(List.of("a"), usable.jobs().stream().map(JobSpec::name).toList());
        assertEquals(List.of(), usable.errors());
    }

    @Test
    void aMissingFileIsOneErrorAndNothingUsable(@TempDir Path directory) {
        UsableConfig usable = LOADER.loadUsable(directory.resolve("absent.yaml"));

        assertTrue(usable.database().isEmpty());
        assertEquals(List.of(directory.resolve("absent.yaml") + ": no such file"),
                usable.errors().stream().map(ConfigError::toString).toList());
    }
}
