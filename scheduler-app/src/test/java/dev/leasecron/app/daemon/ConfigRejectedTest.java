package dev.leasecron.app.daemon;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.app.plugins.HttpJob;
import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.ShellJob;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.lease.LeaseTimings;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import dev.leasecron.app.testing.DaemonThread;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rejected edit of the jobs file shows in the metrics until the file is good again, and leaves the
 * replica ready: it runs the last good config, which is all readiness promises.
 */
class ConfigRejectedTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void aRejectedEditShowsInTheMetricsAndLeavesTheReplicaReady(@TempDir Path directory) throws Exception {
        int port = freePort();
        String good = """
                database:
                  url: jdbc:sqlite:leases.db
                http:
                  port: %d
                jobs:
                  - name: nightly
                    schedule: "@daily"
                    type: shell
                    params: {command: "true"}
                """.formatted(port);
        Path file = Files.writeString(directory.resolve("jobs.yaml"), good);
        ConfigLoader loader = new ConfigLoader(Map.of(), JobTypeChecker.acceptAny());
        Daemon daemon = new Daemon(loader.load(file), file, loader, JobRegistry.of(new ShellJob(), new HttpJob()),
                LeaseTimings.DEFAULT);
        CompletableFuture<Void> running = DaemonThread.start(daemon);
        try {
            await().atMost(PATIENCE).ignoreExceptions().until(() -> running.isDone()
                    || metrics(port).contains("leasecron_jobs_loaded 1.0") && status(port, "/readyz") == 200);
            assertTrue(metrics(port).contains("leasecron_config_last_reload_successful 1.0"), metrics(port));

            Files.writeString(file, good.replace("@daily", "@sometimes"));

            await().atMost(PATIENCE).until(() -> metrics(port).contains("leasecron_config_last_reload_successful 0.0"));
            String rejected = metrics(port);
            assertTrue(rejected.contains("leasecron_config_reloads_total{result=\"rejected\"} 1.0"), rejected);
            assertEquals(200, status(port, "/readyz"), "ready on the last good config");

            Files.writeString(file, good);
            await().atMost(PATIENCE).until(() -> metrics(port).contains("leasecron_config_last_reload_successful 1.0"));

            Files.writeString(file, good.replace("@daily", "@hourly"));
            await().atMost(PATIENCE).until(() -> metrics(port).contains("leasecron_config_reloads_total{result=\"applied\"} 1.0"));
            assertTrue(metrics(port).contains("leasecron_config_last_reload_successful 1.0"), metrics(port));
        } finally {
            daemon.stop();
            running.get(60, TimeUnit.SECONDS);
        }
    }

    private String metrics(int port) throws IOException, InterruptedException {
        return client.send(request(port, "/metrics"), HttpResponse.BodyHandlers.ofString()).body();
    }

    private int status(int port, String path) throws IOException, InterruptedException {
        return client.send(request(port, path), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static HttpRequest request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
