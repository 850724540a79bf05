package dev.leasecron.app.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * The stylesheet and script of the pages, read from the jar once: a fixed list, so no request can
 * name another resource of the class path.
 */
final class StaticAssets {
    record Asset(String contentType, byte[] bytes) {}

    private final Map<String, Asset> assets = Map.of(
            "dashboard.css", load("dashboard.css", "text/css; charset=utf-8"),
            "refresh.js", load("refresh.js", "text/javascript; charset=utf-8"),
            "favicon.svg", load("favicon.svg", "image/svg+xml"));

    Optional<Asset> get(String name) {
        return Optional.ofNullable(assets.get(name));
    }

    private static Asset load(String name, String contentType) {
        try (InputStream in = StaticAssets.class.getResourceAsStream("/web/static/" + name)) {
            if (in == null) {
                throw new IllegalStateException("web/static/" + name + " is missing from the jar");
            }
            return new Asset(contentType, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
