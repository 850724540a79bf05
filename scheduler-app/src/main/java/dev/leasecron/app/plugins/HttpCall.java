package dev.leasecron.app.plugins;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What an {@code http} job sends, read from its params: {@code method} (GET when absent),
 * {@code url} (http or https), {@code headers} (names to strings) and {@code body}.
 */
record HttpCall(String method, URI url, Map<String, String> headers, Optional<String> body) {

    static final String METHOD = "method";
    static final String URL = "url";
    static final String HEADERS = "headers";
    static final String BODY = "body";

    HttpCall {
        headers = Map.copyOf(headers);
    }

    /** Reads the call from {@code params}; look at {@code params.problems()} before using it. */
    static HttpCall read(ParamsReader params) {
        String method = params.string(METHOD).map(m -> m.strip().toUpperCase(Locale.ROOT)).orElse("GET");
        URI url = params.requiredString(URL).map(u -> url(u, params)).orElse(null);
        Map<String, String> headers = params.secretStringMap(HEADERS);
        Optional<String> body = body(params);
        HttpCall call = new HttpCall(method, url, headers, body);
        call.checkAgainstHttpClient(params);
        return call;
    }

    /** The request, with {@code timeout} as its time limit for the answer when it is positive. */
    HttpRequest request(Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url)
                .method(method, body.map(HttpRequest.BodyPublishers::ofString)
                        .orElseGet(HttpRequest.BodyPublishers::noBody));
        headers.forEach(builder::header);
        if (timeout != null && timeout.isPositive()) {
            builder.timeout(timeout);
        }
        return builder.build();
    }

    /**
     * {@code GET https://example.com/path}: the method and the URL without its query and user
     * info, which often carry secrets, for logs and failure messages.
     */
    String describe() {
        return method + " " + url.getScheme() + "://" + url.getHost()
                + (url.getPort() == -1 ? "" : ":" + url.getPort())
                + (url.getRawPath() == null ? "" : url.getRawPath());
    }

    /** Masks what {@link #describe()} leaves out: header values, the URL's user info and query. */
    @Override
    public String toString() {
        Map<String, String> maskedHeaders = new java.util.TreeMap<>();
        headers.keySet().forEach(name -> maskedHeaders.put(name, "******"));
        return "HttpCall[" + describe() + ", headers=" + maskedHeaders + ", body=" + body.map(b -> b.length() + " chars")
                .orElse("none") + "]";
    }

    private static URI url(String text, ParamsReader params) {
        URI url;
        try {
            url = new URI(text.strip());
        } catch (URISyntaxException e) {
            // The exception's message quotes the URL, which may hold credentials: give the place only.
            params.problem(URL, "not a URL: " + e.getReason() + " at index " + e.getIndex());
            return null;
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            params.problem(URL, "must start with http:// or https://");
            return null;
        }
        if (url.getHost() == null) {
            params.problem(URL, "has no host");
            return null;
        }
        return url;
    }

    private static Optional<String> body(ParamsReader params) {
        // An empty body is a legitimate body, so this is not params.string(), which rejects blanks.
        Object body = params.raw(BODY);
        if (body == null || body instanceof String) {
            return Optional.ofNullable((String) body);
        }
        params.problem(BODY, "must be a string, not " + ParamsReader.describe(body) + " (quote it)");
        return Optional.empty();
    }

    /** The JDK's words about a header name; about a value, ours, since the JDK's quote it. */
    private static String headerProblem(IllegalArgumentException e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("header value")
                ? "not a valid header value: it holds a line break or another character HTTP does not allow"
                : message;
    }

    /** Lets the JDK judge the method name and headers (restricted names such as Host, bad characters). */
    private void checkAgainstHttpClient(ParamsReader params) {
        HttpRequest.Builder builder = HttpRequest.newBuilder();
        try {
            builder.method(method, HttpRequest.BodyPublishers.noBody());
        } catch (IllegalArgumentException e) {
            params.problem(METHOD, "not a valid HTTP method: " + e.getMessage());
        }
        headers.forEach((name, value) -> {
            try {
                builder.header(name, value);
            } catch (IllegalArgumentException e) {
                params.problem(HEADERS + "." + name, headerProblem(e));
            }
        });
    }
}
