package dev.leasecron.app.web.admin;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.leasecron.app.ops.OpsServer;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The body of an admin request: none, or a JSON object of text fields, each one the action knows (a
 * misspelt key is an error, not a silently ignored wish).
 */
final class ActionBody {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, String> fields;

    private ActionBody(Map<String, String> fields) {
        this.fields = fields;
    }

    /**
     * The body of the request in {@code ctx}, refused with 413 beyond {@value OpsServer#MAX_BODY_BYTES}
     * bytes: by its announced length before anything is read, else while reading (a chunked body).
     *
     * @throws ApiRefusal 413, or as {@link #parse}
     */
    static ActionBody read(Context ctx, Set<String> keys) {
        if (ctx.req().getContentLengthLong() > OpsServer.MAX_BODY_BYTES) {
            throw tooLarge();
        }
        byte[] body;
        try {
            body = ctx.bodyAsBytes();
        } catch (HttpResponseException e) {
            if (e.getStatus() == 413) {
                throw tooLarge();
            }
            throw e;
        }
        return parse(body, ctx.isJson(), keys);
    }

    /**
     * The fields of {@code body}; {@code json} tells whether the request said its body is JSON.
     *
     * @throws ApiRefusal 415 for a body not sent as JSON, 400 for one that is not an object of known text fields
     */
    static ActionBody parse(byte[] body, boolean json, Set<String> keys) {
        if (body.length == 0) {
            return new ActionBody(Map.of());
        }
        if (!json) {
            throw new ApiRefusal(415, "unsupported media type", "send the body as Content-Type: application/json");
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JacksonException e) {
            throw new ApiRefusal(400, "bad request", "the body is not JSON: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw new ApiRefusal(400, "bad request", "the body could not be read");
        }
        if (root == null || root.isMissingNode()) {
            return new ActionBody(Map.of());
        }
        if (!root.isObject()) {
            throw new ApiRefusal(400, "bad request", "the body must be a JSON object" + expected(keys));
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : root.properties()) {
            if (!keys.contains(field.getKey())) {
                throw new ApiRefusal(400, "bad request", "unknown key \"" + field.getKey() + "\"" + expected(keys));
            }
            if (!field.getValue().isTextual()) {
                throw new ApiRefusal(400, "bad request", "\"" + field.getKey() + "\" must be a string");
            }
            fields.put(field.getKey(), field.getValue().textValue());
        }
        return new ActionBody(fields);
    }

    private static ApiRefusal tooLarge() {
        return new ApiRefusal(413, "content too large", "a request body holds at most " + OpsServer.MAX_BODY_BYTES
                + " bytes");
    }

    Optional<String> get(String key) {
        return Optional.ofNullable(fields.get(key));
    }

    private static String expected(Set<String> keys) {
        return keys.isEmpty() ? " (this action takes none)" : " (keys: " + String.join(", ", keys.stream().sorted().toList()) + ")";
    }
}
