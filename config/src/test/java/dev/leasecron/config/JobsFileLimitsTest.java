package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The jobs file's size limit, and that a file within it is read whatever its shape. */
class JobsFileLimitsTest {
    private static final ConfigLoader LOADER = new ConfigLoader(Map.of("HOSTNAME", "test"), JobTypeChecker.acceptAny());
    private static final String TOO_LARGE = ": the file is larger than 4 MiB (4194304 bytes), the most a jobs file may hold";

    @TempDir
    Path directory;

    private static List<String> errors(Path file) {
        return assertThrows(ConfigException.class, () -> LOADER.load(file)).errors().stream()
                .map(ConfigError::toString).toList();
    }

    @Test
    void aFileOverTheLimitIsRefusedNamingTheFileAndTheLimit() throws IOException {
        Path file = directory.resolve("jobs.yaml");
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(50L * 1024 * 1024);
        }
        assertEquals(List.of(file + TOO_LARGE), errors(file));
    }

    @Test
    void commentsCountTowardsTheLimit() throws IOException {
        Path file = Files.writeString(directory.resolve("jobs.yaml"),
                "jobs: []\n" + "# a comment\n".repeat(ConfigLoader.MAX_FILE_BYTES / 12 + 1));
        assertEquals(List.of(file + TOO_LARGE), errors(file));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void anEndlessFileIsRefusedWithoutReadingItWhole() {
        Path endless = Path.of("/dev/zero");
        assertEquals(List.of(endless + TOO_LARGE), errors(endless));
    }

    @Test
    void aScalarFillingAFileAtTheLimitIsReadWhole() throws Exception {
        String head = "jobs:\n  - name: long\n    schedule: '@daily'\n    type: shell\n    params:\n      command: ";
        String command = "x".repeat(ConfigLoader.MAX_FILE_BYTES - head.length() - 1);
        Path file = Files.writeString(directory.resolve("jobs.yaml"), head + command + "\n");
        assertEquals(ConfigLoader.MAX_FILE_BYTES, Files.size(file));

        JobsConfig config = LOADER.load(file);

        assertEquals(command, config.jobs().getFirst().params().get("command"));
    }

    @Test
    void manyBadReferencesAreEachReportedAtTheirOwnLine() {
        StringBuilder yaml = new StringBuilder("jobs:\n  - name: a\n    schedule: '@daily'\n    type: shell\n    params:\n"
                + "      command: |\n");
        for (int i = 0; i < 2_000; i++) {
            yaml.append("        echo ${UNSET_").append(i).append("}\n");
        }
        List<ConfigError> errors = assertThrows(ConfigException.class, () -> LOADER.parse("jobs.yaml", yaml.toString()))
                .errors();
        assertEquals(2_000, errors.size());
        assertEquals("jobs.yaml:7:14: jobs[0].params.command: environment variable UNSET_0 is not set"
                + " (write ${UNSET_0:-default} to give a default)", errors.getFirst().toString());
        assertEquals(7 + 1_999, errors.getLast().line());
        assertEquals(14, errors.getLast().column());
    }
}
