package dev.leasecron.app.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.leasecron.app.testing.TestJobContext;
import dev.leasecron.jobs.Job;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drop-in path end to end, with the example plugin of {@code examples/hello-plugin}: its source
 * and service file, compiled into a jar at test time (the example's own Maven build is not part of
 * this one), dropped into a plugins folder, found by the registry and run.
 */
class HelloPluginDropInTest {
    private static final Path EXAMPLE = Path.of(System.getProperty("basedir", "."))
            .resolve("../examples/hello-plugin/src/main").normalize();

    @Test
    void exampleJarDroppedIntoThePluginsFolderProvidesTheHelloType(@TempDir Path plugins) throws Exception {
        exampleJar(plugins.resolve("hello-plugin.jar"));

        try (JobRegistry registry = JobRegistry.load(PluginFolder.given(plugins))) {
            assertEquals(List.of("hello", "http", "shell"), List.copyOf(registry.types()));
            assertEquals(List.of("params.greting: unknown key; known keys: greeting"),
                    registry.problems("hello", Map.of("greting", "hi")));

            Job hello = registry.get("hello");
            TestJobContext context = new TestJobContext("greet", Map.of("greeting", "good day"))
                    .instant(Instant.parse("2026-12-02T15:05:00Z"))
                    .term(3);
            hello.run(context);
            assertEquals(List.of("good day from greet: instant=2026-12-02T15:05:00Z term=3"),
                    context.log().messages());
        }
    }

    private static void exampleJar(Path jar) throws IOException {
        Path source = EXAMPLE.resolve("java/dev/leasecron/examples/hello/HelloJob.java");
        PluginJarBuilder builder = new PluginJarBuilder()
                .source("dev.leasecron.examples.hello.HelloJob", Files.readString(source));
        Files.readAllLines(EXAMPLE.resolve("resources/META-INF/services/" + Job.class.getName())).stream()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .forEach(builder::provider);
        builder.write(jar);
    }
}
