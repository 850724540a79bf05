package dev.leasecron.app.web.admin;

import dev.leasecron.app.logging.Event;
import dev.leasecron.app.logging.Events;
import io.javalin.http.Context;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who a state-changing request acts as: the name of the token in its {@code Authorization: Bearer}
 * header. A refusal is logged as {@code admin.refused} with the address it came from, never with what
 * was presented.
 */
final class BearerCheck {
    private static final Logger LOG = LoggerFactory.getLogger("leasecron.http");

    private BearerCheck() {}

    /**
     * The requester the request's token names.
     *
     * @throws ApiRefusal 401 (with a {@code WWW-Authenticate} challenge) without a bearer token, 403 with
     *     another token than the admin's
     */
    static String requester(Context ctx, AdminToken admin) {
        Optional<String> presented = bearer(ctx.header("Authorization"));
        if (presented.isEmpty()) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"leasecron\"");
            refused(ctx, 401, "no bearer token");
            throw new ApiRefusal(401, "unauthorized", "send the admin token as Authorization: Bearer TOKEN");
        }
        if (!admin.matches(presented.get())) {
            refused(ctx, 403, "wrong token");
            throw new ApiRefusal(403, "forbidden", "the token given is not the admin token");
        }
        return admin.name();
    }

    /** The token of an {@code Authorization: Bearer TOKEN} header; the scheme's case does not matter (RFC 9110). */
    private static Optional<String> bearer(String authorization) {
        if (authorization == null) {
            return Optional.empty();
        }
        String[] parts = authorization.strip().split(" +", 2);
        if (parts.length != 2 || !parts[0].equalsIgnoreCase("Bearer") || parts[1].isBlank()) {
            return Optional.empty();
        }
        return Optional.of(parts[1].strip());
    }

    /** A 401 is what any scanner of the port gets (info); a wrong token is someone trying (warning). */
    private static void refused(Context ctx, int status, String reason) {
        Event event = Event.of(Events.ADMIN_REFUSED).with("status", status).with("method", ctx.method().name())
                .with("path", ctx.path()).with("remote", ctx.ip()).with("reason", reason);
        if (status == 403) {
            event.warn(LOG);
        } else {
            event.info(LOG);
        }
    }
}
