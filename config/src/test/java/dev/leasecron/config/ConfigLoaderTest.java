package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigLoaderTest {
    private static final Map<String, String> ENV = Map.of("HOSTNAME", "replica-7", "DB_PASSWORD", "s3cr3t-pw");
    private static final ConfigLoader LOADER = new ConfigLoader(ENV, JobTypeChecker.acceptAny());

    private static JobsConfig parse(String yaml) throws ConfigException {
        return LOADER.parse("jobs.yaml", yaml);
    }

    private static List<String> errors(String yaml) {
        return assertThrows(ConfigException.class, () -> parse(yaml)).errors().stream()
                .map(ConfigError::toString)
                .toList();
    }

    @Nested
    class TheExampleFile {
        private final JobsConfig config =
                loadExample(new ConfigLoader(Map.of(), InvalidFixturesTest.BUILT_INS));

        private static JobsConfig loadExample(ConfigLoader loader) {
            try {
                return loader.load(Path.of("../examples/jobs.yaml"));
            } catch (ConfigException e) {
                throw new AssertionError(e.getMessage(), e);
            }
        }

        @Test
        void runsOnTheEmbeddedDefault() {
            assertTrue(config.database().embedded());
            assertEquals("jdbc:sqlite:leasecron.db", config.database().primary().url());
            assertEquals(1, config.database().poolMaxSize());
        }

        @Test
        void readsEveryJobWithItsDefaults() {
            assertEquals(List.of("heartbeat", "disk-report", "morning-digest", "scratch-cleanup", "quarterly-archive"),
                    config.jobs().stream().map(JobSpec::name).toList());
            JobSpec heartbeat = config.job("heartbeat").orElseThrow();
            assertEquals(ZoneId.of("UTC"), heartbeat.timeZone());
            assertEquals(Duration.ofSeconds(4), heartbeat.timeout());
            assertEquals(CatchUp.LATEST, heartbeat.catchUp());
            assertEquals(Scope.CLUSTER, heartbeat.scope());
            assertTrue(heartbeat.enabled());
            assertEquals(Optional.of(Instant.parse("2026-12-02T16:00:05Z")),
                    heartbeat.schedule().nextInstant(Instant.parse("2026-12-02T16:00:00Z")));
            assertEquals(Scope.REPLICA, config.job("scratch-cleanup").orElseThrow().scope());
            assertFalse(config.job("quarterly-archive").orElseThrow().enabled());
            assertEquals(Duration.ofMinutes(90), config.job("quarterly-archive").orElseThrow().timeout());
        }

        @Test
        void interpolatesDefaultsWhenTheEnvironmentIsEmpty() {
            assertEquals("example-replica", config.instance());
            assertEquals("http://127.0.0.1:8080/readyz", config.job("morning-digest").orElseThrow().params().get("url"));
        }

        @Test
        void leavesShellVariablesAndEscapesForTheShell() {
            assertTrue(((String) config.job("heartbeat").orElseThrow().params().get("command")).contains("$LEASECRON_INSTANT"));
            assertTrue(((String) config.job("quarterly-archive").orElseThrow().params().get("command")).startsWith("tar -czf \"${HOME}/"));
        }

        @Test
        void masksTheAuthorizationHeaderWhenPrinted() {
            assertFalse(config.toString().contains("not-a-real-token"));
            assertTrue(config.toString().contains("Authorization=******"));
        }
    }

    @Test
    void fillsEveryDefault() throws ConfigException {
        JobsConfig config = parse("""
                jobs:
                  - name: a
                    schedule: "@hourly"
                    type: shell
                """);
        assertEquals(DatabaseSpec.embeddedDefault(), config.database());
        assertEquals("replica-7", config.instance());
        assertEquals(8080, config.httpPort());
        assertEquals(Duration.ofSeconds(25), config.shutdownGrace());
        JobSpec job = config.jobs().getFirst();
        assertEquals(Duration.ofHours(1), job.timeout());
        assertEquals(ZoneId.of("UTC"), job.timeZone());
        assertEquals(Map.of(), job.params());
        assertEquals("cron:a", job.leaseName());
    }

    @Test
    void jobsOfOneExpressionAndZoneShareOneSchedule() throws ConfigException {
        JobsConfig config = parse("""
                jobs:
                  - name: a
                    schedule: "*/5 * * * *"
                    type: shell
                  - name: b
                    schedule: "*/5 * * * *"
                    type: shell
                  - name: c
                    schedule: "*/5 * * * *"
                    timeZone: Europe/Paris
                    type: shell
                  - name: d
                    schedule: "0 * * * *"
                    type: shell
                """);
        List<Schedule> schedules = config.jobs().stream().map(JobSpec::schedule).toList();
        assertSame(schedules.get(0), schedules.get(1), "one expression, one zone: the instants found once for both");
        assertNotSame(schedules.get(0), schedules.get(2), "another zone");
        assertNotSame(schedules.get(0), schedules.get(3), "another expression");
    }

    @Test
    void readsAServerDatabaseWithExtraInstances() throws ConfigException {
        JobsConfig config = parse("""
                database:
                  url: jdbc:postgresql://db:5432/leasecron
                  username: leasecron
                  password: ${DB_PASSWORD}
                  pool:
                    maxSize: 4
                  instances:
                    reports:
                      url: jdbc:mariadb://reports:3306/r?sslMode=disable
                      username: ro
                      password: ${REPORTS_PASSWORD:-fallback-pw}
                instance: pod-1
                http:
                  port: 9090
                shutdownGrace: 1m
                jobs: []
                """);
        DatabaseSpec database = config.database();
        assertFalse(database.embedded());
        assertEquals("jdbc:postgresql://db:5432/leasecron", database.primary().url());
        assertEquals(Optional.of("leasecron"), database.primary().username());
        assertEquals("s3cr3t-pw", database.primary().password().reveal());
        assertEquals(4, database.poolMaxSize());
        assertEquals("fallback-pw", database.instances().get("reports").password().reveal());
        assertEquals(List.of("reports"), List.copyOf(database.instances().keySet()));
        assertEquals("pod-1", config.instance());
        assertEquals(9090, config.httpPort());
        assertEquals(Duration.ofMinutes(1), config.shutdownGrace());
        assertFalse(config.toString().contains("s3cr3t-pw"), config.toString());
        assertFalse(config.toString().contains("fallback-pw"), config.toString());
    }

    @Test
    void anInstanceWiderThanTheLeaseTablesColumnIsAnError() throws ConfigException {
        String widest = "é".repeat(95) + "x";
        assertEquals(widest, parse("instance: " + widest + "\njobs: []\n").instance());
        assertEquals(List.of("jobs.yaml:1:11: instance: at most 191 UTF-8 bytes (the width of the lease table's"
                + " instance column), has 192"), errors("instance: " + "é".repeat(96) + "\njobs: []\n"));
    }

    @Nested
    class Interpolation {
        @Test
        void allThreeFormsAnywhereInTheFile() throws ConfigException {
            JobsConfig config = parse("""
                    instance: ${HOSTNAME}-${ZONE:-eu}
                    jobs:
                      - name: ${JOB_PREFIX:-nightly}-backup
                        schedule: "0 2 * * *"
                        type: shell
                        params:
                          ${HEADER:-X-Trace}: on
                          command: echo "$${literal} and $HOME stay"
                    """);
            assertEquals("replica-7-eu", config.instance());
            JobSpec job = config.jobs().getFirst();
            assertEquals("nightly-backup", job.name());
            assertEquals("echo \"${literal} and $HOME stay\"", job.params().get("command"));
            assertTrue(job.params().containsKey("X-Trace"));
        }

        @Test
        void aValueCannotChangeTheFilesShape() throws ConfigException {
            ConfigLoader loader = new ConfigLoader(Map.of("TRICK", "x\njobs: []\n# "), JobTypeChecker.acceptAny());
            JobsConfig config = loader.parse("jobs.yaml", """
                    jobs:
                      - name: a
                        schedule: "@daily"
                        type: shell
                        params:
                          command: ${TRICK}
                    """);
            assertEquals("x\njobs: []\n# ", config.jobs().getFirst().params().get("command"));
        }

        @Test
        void everyMissingVariableIsReportedAtItsReference() {
            assertEquals(List.of(
                            "jobs.yaml:1:11: instance: environment variable NODE is not set (write ${NODE:-default} to give a default)",
                            "jobs.yaml:7:21: jobs[0].params.url: environment variable API_HOST is not set (write ${API_HOST:-default} to give a default)",
                            "jobs.yaml:14:14: jobs[1].params.command: environment variable BODY is not set (write ${BODY:-default} to give a default)"),
                    errors("""
                            instance: ${NODE}
                            jobs:
                              - name: a
                                schedule: "@daily"
                                type: http
                                params: {method: GET,
                                  url: "https://${API_HOST}/x"}
                              - name: b
                                schedule: "@daily"
                                type: shell
                                params:
                                  command: |
                                    first line
                                    echo ${BODY}
                            """));
        }
    }

    @Test
    void paramsKeepYamlTypesForThePlugin() throws ConfigException {
        List<Map<String, Object>> seen = new ArrayList<>();
        ConfigLoader loader = new ConfigLoader(ENV, (type, params) -> {
            seen.add(params);
            return List.of();
        });
        JobSpec job = loader.parse("jobs.yaml", """
                jobs:
                  - name: a
                    schedule: "@daily"
                    type: http
                    params:
                      retries: 3
                      huge: 99999999999999999999
                      ratio: 0.5
                      follow: true
                      nothing: null
                      argv: [curl, -s]
                      headers: {Accept: text/plain}
                      port: ${PORT:-8080}
                """).jobs().getFirst();
        assertEquals(List.of(job.params()), seen);
        assertEquals(3L, job.params().get("retries"));
        assertEquals(new BigInteger("99999999999999999999"), job.params().get("huge"));
        assertEquals(0.5, job.params().get("ratio"));
        assertEquals(true, job.params().get("follow"));
        assertTrue(job.params().containsKey("nothing"));
        assertEquals(List.of("curl", "-s"), job.params().get("argv"));
        assertEquals(Map.of("Accept", "text/plain"), job.params().get("headers"));
        assertEquals("8080", job.params().get("port"), "interpolated values are strings");
        assertThrows(UnsupportedOperationException.class, () -> job.params().put("x", 1));
    }

    @Test
    void secretLookingParamsAreMaskedAtAnyDepth() throws ConfigException {
        JobSpec job = parse("""
                jobs:
                  - name: a
                    schedule: "@daily"
                    type: http
                    params:
                      url: https://example.com
                      apiKey: k-123
                      token: t-456
                      headers:
                        authorization: Bearer b-789
                        Accept: text/plain
                      env:
                        DB_PASSWORD: p-000
                        CLIENT_SECRET: c-111
                """).jobs().getFirst();
        String printed = job.toString();
        for (String secret : List.of("k-123", "t-456", "b-789", "p-000", "c-111")) {
            assertFalse(printed.contains(secret), secret + " leaked: " + printed);
        }
        assertTrue(printed.contains("https://example.com"));
        assertTrue(printed.contains("Accept=******"), "every header value is masked, its name is not: " + printed);
        assertEquals("t-456", job.params().get("token"), "the plugin still gets the value");
    }

    @Test
    void everyHeaderValueAndUrlCredentialIsMaskedWhateverItsType() throws ConfigException {
        JobSpec job = parse("""
                jobs:
                  - name: a
                    schedule: "@daily"
                    type: http
                    params:
                      url: https://user:hunter2@example.com/hook?sig=1&api_key=k-222&x=ok
                      headers:
                        X-Custom: c-333
                        X-Number: 44444
                        X-Control: "zq\\u0001zq"
                      mirror: http://u:p-555@example.org/
                """).jobs().getFirst();

        String printed = job.toString();

        for (String secret : List.of("hunter2", "k-222", "c-333", "44444", "zq", "\u0001", "p-555")) {
            assertFalse(printed.contains(secret), secret + " leaked: " + printed);
        }
        assertTrue(printed.contains("url=https://user:******@example.com/hook?sig=1&api_key=******&x=ok"), printed);
        assertTrue(printed.contains("headers={X-Custom=******, X-Number=******, X-Control=******}"), printed);
        assertEquals(44444L, ((Map<?, ?>) job.params().get("headers")).get("X-Number"), "the plugin still gets the value");
    }

    @Test
    void aBadReferenceInASecretIsReportedWithoutQuotingIt() {
        List<String> errors = errors("""
                database:
                  url: jdbc:postgresql://db/app
                  password: "pw-1${not valid}pw-2"
                http:
                  adminToken: "${1ST}tok"
                jobs:
                  - name: a
                    schedule: "@daily"
                    type: http
                    params:
                      headers:
                        X-Api-Key: "k${-}k"
                """);

        assertEquals(3, errors.size(), errors.toString());
        for (String error : errors) {
            assertTrue(error.contains(": this \"${\" is not a variable reference"), error);
            for (String secret : List.of("pw-", "not valid", "1ST", "tok", "k${-}k")) {
                assertFalse(error.contains(secret), secret + " leaked: " + error);
            }
        }
    }

    @Nested
    class Http {
        @Test
        void readsTheAddressAndTheAdminTokenWhichPrintsMasked() throws ConfigException {
            JobsConfig config = parse("http:\n  address: 127.0.0.1\n  port: 9091\n  adminToken: 1234567890123456\njobs: []\n");

            assertEquals(Optional.of("127.0.0.1"), config.httpAddress());
            assertEquals(9091, config.httpPort());
            assertEquals("1234567890123456", config.adminToken().reveal(), "a number is a token too");
            assertFalse(config.toString().contains("1234567890123456"), config.toString());
        }

        @Test
        void defaultsListenOnEveryInterfaceWithoutAToken() throws ConfigException {
            JobsConfig config = parse("jobs: []\n");

            assertEquals(Optional.empty(), config.httpAddress());
            assertEquals(Secret.none(), config.adminToken());
        }

        @Test
        void aBadTokenOrAddressIsReportedWithoutItsValue() {
            assertEquals(List.of(
                    "jobs.yaml:2:12: http.address: expected an IP address such as 127.0.0.1 or ::1, or a host name,"
                            + " was \"not an address\"",
                    "jobs.yaml:3:15: http.adminToken: holds a control character; a secret must be printable text"),
                    errors("http:\n  address: not an address\n  adminToken: \"s3cr\\x07et\"\njobs: []\n"));
            assertEquals(List.of("jobs.yaml:2:15: http.adminToken: expected a string, found a list"),
                    errors("http:\n  adminToken: [s3cret]\njobs: []\n"));
        }

        @Test
        void theAdminTokenComesFromTheEnvironment() throws ConfigException {
            String token = "f3b9c1d2e4a5b6c7d8e9f0a1b2c3d4e5";
            ConfigLoader loader = new ConfigLoader(Map.of("LEASECRON_ADMIN_TOKEN", token), JobTypeChecker.acceptAny());

            JobsConfig config = loader.parse("jobs.yaml", "http:\n  adminToken: ${LEASECRON_ADMIN_TOKEN}\njobs: []\n");

            assertEquals(token, config.adminToken().reveal());
            assertFalse(config.toString().contains(token), config.toString());
        }

        @Test
        void anUnsetTokenVariableIsAnErrorUnlessItHasADefault() throws ConfigException {
            assertEquals(List.of("jobs.yaml:2:15: http.adminToken: environment variable LEASECRON_ADMIN_TOKEN is not set"
                    + " (write ${LEASECRON_ADMIN_TOKEN:-default} to give a default)"),
                    errors("http:\n  adminToken: ${LEASECRON_ADMIN_TOKEN}\njobs: []\n"));
            assertEquals(Secret.none(), parse("http:\n  adminToken: ${LEASECRON_ADMIN_TOKEN:-}\njobs: []\n").adminToken(),
                    "an empty default turns the admin API off");
        }

        @Test
        void aTokenTooShortOrNotFitForAHeaderIsRefusedWithoutShowingIt() {
            assertEquals(List.of("jobs.yaml:2:15: http.adminToken: must be at least 16 characters; make one with:"
                    + " openssl rand -hex 32"), errors("http:\n  adminToken: short-s3cret\njobs: []\n"));
            assertEquals(List.of("jobs.yaml:2:15: http.adminToken: must be visible ASCII without spaces: it is sent in"
                    + " an HTTP Authorization header"), errors("http:\n  adminToken: \"s3cret with spaces in it\"\njobs: []\n"));
            assertEquals(List.of("jobs.yaml:2:15: http.adminToken: must be visible ASCII without spaces: it is sent in"
                    + " an HTTP Authorization header"), errors("http:\n  adminToken: s3cret-\u00e9-s3cret-s3cret\njobs: []\n"));
        }

        @Test
        void theEnvironmentsPortWinsOverTheFiles() throws ConfigException {
            ConfigLoader loader = new ConfigLoader(Map.of("LEASECRON_HTTP_PORT", "9099"), JobTypeChecker.acceptAny());

            assertEquals(9099, loader.parse("jobs.yaml", "http:\n  port: 9091\njobs: []\n").httpPort());
            assertEquals(9099, loader.parse("jobs.yaml", "jobs: []\n").httpPort());
        }

        @Test
        void anUnusablePortInTheEnvironmentIsAnError() {
            ConfigLoader loader = new ConfigLoader(Map.of("LEASECRON_HTTP_PORT", "http"), JobTypeChecker.acceptAny());

            assertEquals(List.of("jobs.yaml: environment variable LEASECRON_HTTP_PORT must be a port between 1 and 65535,"
                    + " was \"http\""),
                    assertThrows(ConfigException.class, () -> loader.parse("jobs.yaml", "jobs: []\n")).errors().stream()
                            .map(ConfigError::toString).toList());
        }
    }

    @ParameterizedTest
    @CsvSource({"* * 31 2 *", "0 0 30 2 *", "'0 0 31 4,6,9,11 *'", "0 0 0 31 2 *"})
    void aScheduleThatNeverFiresIsAnError(String expression) {
        assertEquals(List.of("jobs.yaml:3:15: jobs[0].schedule: invalid cron \"" + expression + "\": it never fires: no"
                + " date in the next 8 years matches it (a day the month does not have, such as 31 February?)"),
                errors("jobs:\n  - name: a\n    schedule: \"" + expression + "\"\n    type: shell\n"));
    }

    @Test
    void aLeapDayScheduleIsValid() throws ConfigException {
        assertEquals("0 0 29 2 *", parse("jobs:\n  - {name: leap, schedule: '0 0 29 2 *', type: shell}\n")
                .jobs().getFirst().schedule().expression());
    }

    @Test
    void aJobNameOf186BytesFitsTheLeaseTable() throws ConfigException {
        String name = "ü".repeat(93);
        JobSpec job = parse("jobs:\n  - {name: " + name + ", schedule: '@daily', type: shell}\n").jobs().getFirst();
        assertEquals("cron:" + name, job.leaseName());
    }

    @ParameterizedTest
    @CsvSource({
        "'\\0', 0000",
        "'a\\nround.start forged', 000A",
        "'tab\\there', 0009",
        "'\\x7f', 007F",
        "'\\u0085', 0085",
        "'line\\u2028sep', 2028",
    })
    void aJobNameWithAControlCharacterIsRefusedAtTheName(String quoted, String codePoint) {
        assertEquals(List.of("jobs.yaml:2:11: jobs[0].name: holds the control character U+" + codePoint + "; a job name"
                + " goes into log lines and the lease table, so it must be printable text"),
                errors("jobs:\n  - name: \"" + quoted + "\"\n    schedule: '@daily'\n    type: shell\n"));
    }

    @Test
    void aControlCharacterFromTheEnvironmentIsRefusedToo() {
        ConfigLoader loader = new ConfigLoader(Map.of("JOB", "a\u0000b"), JobTypeChecker.acceptAny());
        List<String> errors = assertThrows(ConfigException.class, () -> loader.parse("jobs.yaml",
                "jobs:\n  - {name: '${JOB}', schedule: '@daily', type: shell}\n")).errors().stream()
                .map(ConfigError::toString).toList();
        assertEquals(1, errors.size());
        assertTrue(errors.getFirst().startsWith("jobs.yaml:2:12: jobs[0].name: holds the control character U+0000"),
                errors.getFirst());
    }

    @Test
    void aFileThatCannotBeReadIsAConfigError(@TempDir Path directory) throws IOException {
        Path missing = directory.resolve("missing.yaml");
        assertEquals(List.of(missing + ": no such file"),
                assertThrows(ConfigException.class, () -> LOADER.load(missing)).errors().stream()
                        .map(ConfigError::toString).toList());
        Path binary = Files.write(directory.resolve("binary.yaml"), new byte[] {(byte) 0xff, (byte) 0xfe, 0});
        assertEquals(List.of(binary + ": not a text file in UTF-8"),
                assertThrows(ConfigException.class, () -> LOADER.load(binary)).errors().stream()
                        .map(ConfigError::toString).toList());
    }
}
