package dev.leasecron.app.plugins;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.leasecron.app.testing.RoundThread;
import dev.leasecron.app.testing.TestJobContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpJobTest {
    private final HttpJob job = new HttpJob();
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;

    private record Received(String method, String path, String header, String body) {}

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/ok", exchange -> {
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("X-Token"),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            answer(exchange, 204, "");
        });
        server.createContext("/broken", exchange -> answer(exchange, 500, "database is down\n" + "x".repeat(5_000)));
        server.createContext("/slow", exchange -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(exchange, 200, "late");
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        release.countDown();
        server.stop(0);
    }

    @Test
    void twoHundredsAnswerIsSuccessAndTheRequestCarriesMethodHeadersAndBody() throws Exception {
        TestJobContext context = context(Map.of("method", "post", "url", url("/ok"),
                "headers", Map.of("X-Token", "secret"), "body", "{\"run\":true}"));

        job.run(context);

        assertEquals(new Received("POST", "/ok", "secret", "{\"run\":true}"), received.poll());
        assertTrue(context.log().messages().getFirst().startsWith("POST " + url("/ok") + " answered 204"),
                context.log().messages()::toString);
    }

    @Test
    void methodIsGetWhenNotGiven() throws Exception {
        job.run(context(Map.of("url", url("/ok"))));

        assertEquals("GET", received.poll().method());
    }

    @Test
    void errorStatusFailsWithStatusAndABoundedExcerptOfTheBody() {
        TestJobContext context = context(Map.of("url", url("/broken") + "?token=hidden"));

        JobFailedException failure = assertThrows(JobFailedException.class, () -> job.run(context));

        String message = failure.getMessage();
        assertTrue(message.startsWith("GET " + url("/broken") + " answered 500 after "), message);
        assertTrue(message.contains(": database is down\nxxx"), message);
        assertTrue(message.endsWith("x…"), message);
        assertTrue(message.length() < 1_200, "excerpt is bounded: " + message.length());
        assertTrue(!message.contains("hidden"), "the query string stays out of messages: " + message);
    }

    @Test
    void noAnswerWithinTheJobTimeoutIsAFailure() {
        TestJobContext context = context(Map.of("url", url("/slow"))).timeout(Duration.ofMillis(200));

        JobFailedException failure = assertThrows(JobFailedException.class, () -> job.run(context));

        assertEquals("GET " + url("/slow") + ": no answer within PT0.2S", failure.getMessage());
    }

    @Test
    void cancellationAbortsTheRequestAndEndsTheRound() {
        TestJobContext context = context(Map.of("url", url("/slow")));
        RoundThread round = RoundThread.start(job, context);

        CancellationException shutdown = new CancellationException("daemon stopping");
        context.cancellation().cancel(shutdown);

        await().atMost(Duration.ofSeconds(5)).until(() -> !round.isRunning());
        CancellationException stopped = assertInstanceOf(CancellationException.class, round.failure().orElseThrow());
        assertEquals(shutdown, stopped.getCause());
    }

    @Test
    void unreachableServerIsAFailure() {
        server.stop(0);
        TestJobContext context = context(Map.of("url", url("/ok")));

        JobFailedException failure = assertThrows(JobFailedException.class, () -> job.run(context));

        assertTrue(failure.getMessage().startsWith("GET " + url("/ok") + ": java.net.ConnectException"),
                failure.getMessage());
    }

    @Test
    void checkParamsNamesEachBadKey() {
        assertEquals(List.of(), job.checkParams(Map.of("url", "https://example.com/hook", "method", "PUT",
                "headers", Map.of("Authorization", "Bearer x"), "body", "")));
        assertEquals(List.of("params.url: required"), job.checkParams(Map.of()));
        assertEquals(List.of("params.url: must start with http:// or https://"),
                job.checkParams(Map.of("url", "ftp://example.com/file")));
        assertEquals(List.of("params.method: not a valid HTTP method: illegal method \"GE T\""),
                job.checkParams(Map.of("url", "http://example.com", "method", "GE T")));
        assertEquals(List.of("params.headers.Host: restricted header name: \"Host\""),
                job.checkParams(Map.of("url", "http://example.com", "headers", Map.of("Host", "other"))));
        assertEquals(List.of("params.body: must be a string, not a mapping (quote it)"),
                job.checkParams(Map.of("url", "http://example.com", "body", Map.of("a", "b"))));
    }

    @Test
    void headerValuesAndUrlCredentialsNeverAppearInProblemsWhateverTheirType() {
        List<String> problems = job.checkParams(Map.of(
                "url", "http://user:hunter2@exa mple.com/",
                "headers", Map.of("X-Api-Key", 12345, "X-Flag", true, "X-Token", "abc\u0001def", "X-Forged", "ok\r\nX-Evil: 1")));

        assertEquals(List.of(
                "params.headers.X-Api-Key: must be a string, not a number (quote it)",
                "params.headers.X-Flag: must be a string, not a boolean (quote it)",
                "params.headers.X-Forged: not a valid header value: it holds a line break or another character HTTP"
                        + " does not allow",
                "params.headers.X-Token: not a valid header value: it holds a line break or another character HTTP"
                        + " does not allow",
                "params.url: not a URL: Illegal character in authority at index 23"),
                problems.stream().sorted().toList());
        String printed = String.join("\n", problems);
        for (String secret : List.of("hunter2", "12345", "true", "abc", "def", "X-Evil")) {
            assertFalse(printed.contains(secret), secret + " leaked: " + printed);
        }
    }

    @Test
    void aCallPrintsWithoutItsSecrets() {
        ParamsReader params = new ParamsReader(Map.of("url", "https://user:hunter2@example.com/hook?token=t-1",
                "headers", Map.of("X-Api-Key", "k-1"), "body", "b-1"));
        String printed = HttpCall.read(params).toString();

        assertEquals("HttpCall[GET https://example.com/hook, headers={X-Api-Key=******}, body=3 chars]", printed);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static TestJobContext context(Map<String, Object> params) {
        return new TestJobContext("ping", params);
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
