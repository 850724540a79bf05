package dev.leasecron.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prometheus, as the chart sets it up: every replica's {@code /metrics} scraped every 30 s with a 10 s
 * timeout, from the replicas' start to the cell's end, so the CPU a cell measures includes what serving
 * the scrapes costs a deployed daemon. Reports the largest scrape and the slowest, and those that
 * failed or timed out.
 */
final class MetricsScraper {
    private static final Duration INTERVAL = Duration.ofSeconds(30);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final List<Integer> ports;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final Thread thread;
    private long scrapes;
    private long failed;
    private long maxBytes;
    private long maxMillis;

    private MetricsScraper(List<Integer> ports) {
        this.ports = ports;
        this.thread = Thread.ofPlatform().daemon().name("metrics-scraper").unstarted(this::run);
    }

    static MetricsScraper start(List<Integer> ports) {
        MetricsScraper s = new MetricsScraper(ports);
        s.thread.start();
        return s;
    }

    private void run() {
        try {
            while (true) {
                long next = System.nanoTime() + INTERVAL.toNanos();
                for (int port : ports) {
                    scrape(port);
                }
                Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
            }
        } catch (InterruptedException e) {
            // stopped
        }
    }

    private void scrape(int port) throws InterruptedException {
        long started = System.nanoTime();
        try {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofByteArray());
            long millis = (System.nanoTime() - started) / 1_000_000;
            synchronized (this) {
                scrapes++;
                if (r.statusCode() != 200) {
                    failed++;
                }
                maxBytes = Math.max(maxBytes, r.body().length);
                maxMillis = Math.max(maxMillis, millis);
            }
        } catch (IOException e) {
            synchronized (this) {
                scrapes++;
                failed++;
            }
        }
    }

    /** Stops scraping; what the scrapes were. */
    synchronized Map<String, Object> stop() {
        thread.interrupt();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("interval_s", INTERVAL.toSeconds());
        m.put("scrapes", scrapes);
        m.put("failed_or_timed_out", failed);
        m.put("max_bytes", maxBytes);
        m.put("max_ms", maxMillis);
        return m;
    }
}
