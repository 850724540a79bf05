package dev.leasecron.app.daemon;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.app.plugins.HttpJob;
import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.ShellJob;
import dev.leasecron.app.testing.DaemonThread;
import dev.leasecron.app.testing.LogLines;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.lease.LeaseTimings;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon serves the admin API with the token of its config ({@code ${LEASECRON_ADMIN_TOKEN}}):
 * its requests are checked against that token, the job pages offer the buttons, and
 * {@code daemon.started} says the admin API is on without the token appearing in any log line.
 */
class AdminWiringTest {
    private static final String TOKEN = "wiring-test-admin-token-9a8b7c6d";

    @Test
    void theConfiguredTokenGuardsTheActionsAndIsNeverLogged(@TempDir Path directory) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path file = Files.writeString(directory.resolve("jobs.yaml"), """
                database:
                  url: jdbc:sqlite:leases.db
                http:
                  address: 127.0.0.1
                  port: %d
                  adminToken: ${LEASECRON_ADMIN_TOKEN}
                jobs:
                  - name: nightly
                    schedule: "@daily"
                    type: shell
                    params: {command: "true"}
                """.formatted(port));
        ConfigLoader loader = new ConfigLoader(Map.of("LEASECRON_ADMIN_TOKEN", TOKEN), JobTypeChecker.acceptAny());
        String base = "http://127.0.0.1:" + port;
        try (LogLines logs = LogLines.capture(); HttpClient client = HttpClient.newHttpClient()) {
            Daemon daemon = new Daemon(loader.load(file), file, loader, JobRegistry.of(new ShellJob(), new HttpJob()),
                    LeaseTimings.DEFAULT);
            CompletableFuture<Void> running = DaemonThread.start(daemon);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> started(logs.lines()) != null);
                assertTrue(started(logs.lines()).contains("\"admin_api\":true"), started(logs.lines()));

                assertEquals(401, post(client, base, null));
                assertEquals(403, post(client, base, "Bearer not-" + TOKEN));
                int accepted = post(client, base, "Bearer " + TOKEN);
                assertFalse(accepted == 401 || accepted == 403, "the configured token is accepted: " + accepted);
                String page = client.send(HttpRequest.newBuilder(URI.create(base + "/jobs/nightly")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                assertTrue(page.contains("id=\"actions\""), page);
            } finally {
                daemon.stop();
                running.get(60, TimeUnit.SECONDS);
            }
            for (String line : logs.lines()) {
                assertFalse(line.contains(TOKEN), line);
            }
        }
    }

    private static int post(HttpClient client, String base, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/api/v1/jobs/nightly/resume"))
                .POST(HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private static String started(List<String> lines) {
        return lines.stream().filter(l -> l.contains("\"event\":\"daemon.started\"")).findFirst().orElse(null);
    }
}
