package dev.leasecron.app.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.app.testing.TestJobContext;
import dev.leasecron.jobs.Job;
import dev.leasecron.jobs.JobContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobRegistryTest {
    @TempDir
    Path plugins;

    @Test
    void builtInTypesComeFromTheClasspathWhenTheDefaultFolderIsMissing() {
        try (JobRegistry registry = JobRegistry.load(new PluginFolder(plugins.resolve("absent"), false))) {
            assertEquals(List.of("http", "shell"), List.copyOf(registry.types()));
            assertInstanceOf(ShellJob.class, registry.get("shell"));
            assertInstanceOf(HttpJob.class, registry.get("http"));
        }
    }

    @Test
    void aFolderThatWasAskedForMustExist() {
        PluginLoadException failure = assertThrows(PluginLoadException.class,
                () -> JobRegistry.load(PluginFolder.given(plugins.resolve("absent"))));

        assertEquals("plugins folder " + plugins.resolve("absent").toAbsolutePath() + " does not exist",
                failure.getMessage());
    }

    @Test
    void unknownTypeProblemListsTheKnownTypes() {
        try (JobRegistry registry = JobRegistry.load(PluginFolder.given(plugins))) {
            assertEquals(List.of("unknown job type \"x\"; known types: http, shell"), registry.problems("x", Map.of()));
            assertEquals(Optional.empty(), registry.find("x"));
            IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> registry.get("x"));
            assertEquals("unknown job type \"x\"; known types: http, shell", failure.getMessage());
        }
    }

    @Test
    void problemsOfAKnownTypeAreItsParamChecks() {
        try (JobRegistry registry = JobRegistry.load(PluginFolder.given(plugins))) {
            assertEquals(List.of("params.command: required"), registry.problems("shell", Map.of()));
            assertEquals(List.of("params.url: required"), registry.problems("http", null));
            assertEquals(List.of(), registry.problems("shell", Map.of("command", "true")));
        }
    }

    @Test
    void aParamCheckThatThrowsIsReportedAsAProblem() {
        Job careless = new Job() {
            @Override
            public String type() {
                return "careless";
            }

            @Override
            public List<String> checkParams(Map<String, Object> params) {
                throw new NullPointerException("params.get(\"x\") is null");
            }

            @Override
            public void run(JobContext context) {}
        };
        try (JobRegistry registry = JobRegistry.of(careless)) {
            List<String> problems = registry.problems("careless", Map.of());

            assertEquals(1, problems.size());
            assertTrue(problems.getFirst().startsWith("params: job type \"careless\" of "), problems.getFirst());
            assertTrue(problems.getFirst().endsWith("failed to check them: java.lang.NullPointerException:"
                    + " params.get(\"x\") is null"), problems.getFirst());
        }
    }

    @Test
    void jobsOfAPluginJarAreFoundAndRun() throws Exception {
        Path jar = new PluginJarBuilder().job("com.example.report.ReportJob", "report").write(plugins.resolve("report.jar"));

        try (JobRegistry registry = JobRegistry.load(PluginFolder.given(plugins))) {
            assertEquals(List.of("http", "report", "shell"), List.copyOf(registry.types()));
            assertEquals(jar.toString(), registry.sources().get("report"));
            Job report = registry.get("report");
            assertEquals(jar.toUri().toURL(), report.getClass().getProtectionDomain().getCodeSource().getLocation());
            TestJobContext context = new TestJobContext("nightly-report", Map.of());
            report.run(context);
            assertEquals(List.of("ran report"), context.log().messages());
        }
    }

    @Test
    void twoJarsClaimingOneTypeFailNamingBothClassesAndJars() throws IOException {
        Path first = new PluginJarBuilder().job("com.acme.Sync", "sync").write(plugins.resolve("acme-sync.jar"));
        Path second = new PluginJarBuilder().job("org.other.SyncJob", "sync").write(plugins.resolve("other-sync.jar"));

        PluginLoadException failure = assertThrows(PluginLoadException.class,
                () -> JobRegistry.load(PluginFolder.given(plugins)));

        assertEquals("job type \"sync\" is provided twice: by com.acme.Sync (" + first + ") and by org.other.SyncJob ("
                + second + "); remove one of them", failure.getMessage());
    }

    @Test
    void aPluginCannotTakeOverABuiltInType() throws IOException {
        Path jar = new PluginJarBuilder().job("com.acme.MyShell", "shell").write(plugins.resolve("my-shell.jar"));

        PluginLoadException failure = assertThrows(PluginLoadException.class,
                () -> JobRegistry.load(PluginFolder.given(plugins)));

        assertTrue(failure.getMessage().startsWith("job type \"shell\" is provided twice: by "
                + ShellJob.class.getName() + " ("), failure.getMessage());
        assertTrue(failure.getMessage().endsWith(" and by com.acme.MyShell (" + jar + "); remove one of them"),
                failure.getMessage());
    }

    @Test
    void aPluginWhoseConstructorFailsIsNamedWithItsJar() throws IOException {
        Path jar = new PluginJarBuilder()
                .job("com.acme.Vault", "vault", "throw new IllegalStateException(\"VAULT_ADDR is not set\");")
                .write(plugins.resolve("vault.jar"));

        PluginLoadException failure = assertThrows(PluginLoadException.class,
                () -> JobRegistry.load(PluginFolder.given(plugins)));

        assertTrue(failure.getMessage().startsWith("job plugin com.acme.Vault (" + jar + ") cannot be created: "),
                failure.getMessage());
        assertTrue(failure.getMessage().contains("VAULT_ADDR is not set"), failure.getMessage());
    }

    @Test
    void aProviderMissingFromItsJarIsNamedWithTheJar() throws IOException {
        Path jar = new PluginJarBuilder().provider("com.acme.Gone").write(plugins.resolve("gone.jar"));

        PluginLoadException failure = assertThrows(PluginLoadException.class,
                () -> JobRegistry.load(PluginFolder.given(plugins)));

        assertTrue(failure.getMessage().startsWith("job plugin com.acme.Gone (" + jar + ") cannot be loaded: "),
                failure.getMessage());
    }

    @Test
    void aPluginsPathThatIsAFileIsRefused() throws IOException {
        Path file = Files.writeString(plugins.resolve("plugins.txt"), "not a folder");

        PluginLoadException failure = assertThrows(PluginLoadException.class,
                () -> JobRegistry.load(new PluginFolder(file, false)));

        assertEquals("plugins folder " + file.toAbsolutePath() + " is not a folder", failure.getMessage());
    }

    @Test
    void registryOfGivenJobsRefusesDuplicates() {
        PluginLoadException failure = assertThrows(PluginLoadException.class,
                () -> JobRegistry.of(new ShellJob(), new ShellJob()));

        assertTrue(failure.getMessage().startsWith("job type \"shell\" is provided twice"), failure.getMessage());
    }
}
