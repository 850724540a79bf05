package dev.leasecron.app.web.admin;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The id a run request is recorded under: the client's ({@code Idempotency-Key} header or
 * {@code requestId} in the body), so that a retried request runs once, else a random UUID. It stands
 * in the request's URL ({@code /api/v1/runs/ID}), so it is 1 to {@value #MAX_CHARS} characters that
 * need no escaping there.
 */
record RunRequestId(String value) {
    static final int MAX_CHARS = 64;
    private static final Pattern FORM = Pattern.compile("[A-Za-z0-9._~:-]{1," + MAX_CHARS + "}");

    RunRequestId {
        if (!FORM.matcher(value).matches()) {
            throw new ApiRefusal(400, "bad request", "a request id is 1 to " + MAX_CHARS
                    + " letters, digits and . _ ~ : -, such as a UUID");
        }
    }

    /** Whether {@code text} would do as an id, for reads that answer 404 rather than 400. */
    static boolean valid(String text) {
        return FORM.matcher(text).matches();
    }

    /**
     * The id the client chose, in the header or the body (the same in both when both carry one), else
     * a new random one. The header may be an RFC 8941 string, quoted as the Idempotency-Key draft writes it.
     */
    static RunRequestId chosen(Optional<String> header, Optional<String> body) {
        Optional<String> fromHeader = header.map(String::strip).map(RunRequestId::unquoted);
        if (fromHeader.isPresent() && body.isPresent() && !fromHeader.get().equals(body.get())) {
            throw new ApiRefusal(400, "bad request", "the Idempotency-Key header and requestId in the body differ");
        }
        return new RunRequestId(fromHeader.or(() -> body).orElseGet(() -> UUID.randomUUID().toString()));
    }

    private static String unquoted(String text) {
        return text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"") ? text.substring(1, text.length() - 1)
                : text;
    }
}
