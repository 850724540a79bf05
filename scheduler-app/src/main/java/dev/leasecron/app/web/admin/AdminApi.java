package dev.leasecron.app.web.admin;

import dev.leasecron.app.control.ActionRefusedException;
import dev.leasecron.app.control.UnknownJobException;
import dev.leasecron.app.ops.OpsServer;
import dev.leasecron.app.web.api.ApiJson;
import dev.leasecron.config.JobSpec;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.RunRequest;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The admin API on the ops port: the operators' actions, each a POST carrying the admin token.
 *
 * <ul>
 *   <li>{@code POST /api/v1/jobs/NAME/runs}: run the job now; the request's id is the
 *       {@code Idempotency-Key} header, or {@code {"requestId": "..."}}, or a random UUID. 202 with
 *       the request and its {@code Location}, {@code GET /api/v1/runs/ID} (its state and outcome);
 *   <li>{@code POST /api/v1/jobs/NAME/suspend} ({@code {"reason": "..."}}) and
 *       {@code POST /api/v1/jobs/NAME/resume}: 200 with whether the job is suspended now and
 *       whether this request changed it.
 * </ul>
 *
 * A request is checked in this order, and nothing is done for one refused: the admin API is on
 * (an {@code http.adminToken} is configured; else 404, as if the routes did not exist), the path
 * names an action (else 405), {@code Authorization: Bearer TOKEN} is there (else 401 with
 * {@code WWW-Authenticate: Bearer}) and is the token (else 403), the body is at most
 * {@value OpsServer#MAX_BODY_BYTES} bytes (else 413) of JSON (else 415) the action understands (else
 * 400), and the job is one of the config in force (else 404 naming it). A run request's id already
 * used for another job is 409; a database that does not answer, 503. The requester recorded and
 * logged is the token's name, never the token, which no answer or log entry holds. Answers are JSON,
 * never cached.
 */
public final class AdminApi implements Consumer<RoutesConfig> {
    private static final String JOBS = "/api/v1/jobs/";
    private static final String RUNS = "/api/v1/runs/";
    private static final String JSON = "application/json";
    private static final int MAX_REASON_CHARS = 500;

    /** The last segment of an action's path, after the job's name. */
    enum Action {
        RUNS(Set.of("requestId")), SUSPEND(Set.of("reason")), RESUME(Set.of());

        final Set<String> keys;

        Action(Set<String> keys) {
            this.keys = keys;
        }

        String suffix() {
            return "/" + name().toLowerCase(Locale.ROOT);
        }
    }

    private final Optional<AdminToken> token;
    private final JobControlPort controls;

    /**
     * @param token the admin token; empty turns the actions off (their paths answer 404)
     * @param controls what the actions act through
     */
    public AdminApi(Optional<AdminToken> token, JobControlPort controls) {
        this.token = token;
        this.controls = controls;
    }

    /** Whether the actions exist: a token is configured. */
    public boolean enabled() {
        return token.isPresent();
    }

    /**
     * Whether {@code path}, after {@code /api/v1/jobs/}, is an action's (ends with {@code /runs},
     * {@code /suspend} or {@code /resume}), which a GET of the job's JSON answers with 405.
     */
    public static boolean isAction(String path) {
        return action(path).isPresent();
    }

    @Override
    public void accept(RoutesConfig routes) {
        OpsServer.write(routes, JOBS + "<path>", this::act);
        OpsServer.read(routes, RUNS + "{id}", this::runRequest);
    }

    private void act(Context ctx) {
        String path = ctx.pathParam("path");
        Optional<Action> named = action(path);
        String job = named.map(a -> path.substring(0, path.length() - a.suffix().length())).orElse(path);
        try {
            AdminToken admin = token.orElseThrow(() -> new ApiRefusal(404, "not found",
                    "the admin API is off: no http.adminToken is configured"));
            Action action = named.orElseThrow(() -> {
                ctx.header("Allow", "GET, HEAD");
                return new ApiRefusal(405, "method not allowed", "POST /api/v1/jobs/NAME/runs, /suspend or /resume");
            });
            String requester = BearerCheck.requester(ctx, admin);
            ActionBody body = ActionBody.read(ctx, action.keys);
            switch (action) {
                case RUNS -> trigger(ctx, job, body, requester);
                case SUSPEND -> answer(ctx, 200, new ApiJson.Switch(job, true,
                        controls.suspend(job, requester, reason(body))));
                case RESUME -> answer(ctx, 200, new ApiJson.Switch(job, false, controls.resume(job, requester)));
            }
        } catch (ApiRefusal e) {
            answer(ctx, e.status(), new ApiJson.Problem(e.error(), e.detail()));
        } catch (UnknownJobException e) {
            answer(ctx, 404, new ApiJson.Error("unknown job", job));
        } catch (ActionRefusedException e) {
            answer(ctx, 409, new ApiJson.Problem("refused", e.getMessage()));
        } catch (RuntimeException e) {
            unavailable(ctx, e);
        }
    }

    private void trigger(Context ctx, String job, ActionBody body, String requester) {
        RunRequestId id = RunRequestId.chosen(Optional.ofNullable(ctx.header("Idempotency-Key")), body.get("requestId"));
        RunRequest request = controls.trigger(job, id.value(), requester);
        if (!request.name().equals(JobSpec.LEASE_PREFIX + job)) {
            throw new ApiRefusal(409, "conflict", "request id " + id.value() + " is already used for job "
                    + ApiJson.run(request).job());
        }
        ctx.header("Location", RUNS + request.id());
        answer(ctx, 202, ApiJson.run(request));
    }

    private void runRequest(Context ctx) {
        String id = ctx.pathParam("id");
        try {
            Optional<RunRequest> request = RunRequestId.valid(id) ? controls.request(id) : Optional.empty();
            if (request.isPresent()) {
                answer(ctx, 200, ApiJson.run(request.get()));
            } else {
                answer(ctx, 404, new ApiJson.UnknownRun("unknown run request", id));
            }
        } catch (RuntimeException e) {
            unavailable(ctx, e);
        }
    }

    private static String reason(ActionBody body) {
        String reason = body.get("reason").map(String::strip).orElse("");
        if (reason.length() > MAX_REASON_CHARS || reason.chars().anyMatch(Character::isISOControl)) {
            throw new ApiRefusal(400, "bad request", "a reason is one line of at most " + MAX_REASON_CHARS
                    + " characters");
        }
        return reason;
    }

    private static Optional<Action> action(String path) {
        for (Action action : Action.values()) {
            if (path.endsWith(action.suffix()) && path.length() > action.suffix().length()) {
                return Optional.of(action);
            }
        }
        return Optional.empty();
    }

    /** An action the controls could not carry out: the database did not answer. */
    private static void unavailable(Context ctx, RuntimeException e) {
        if (e instanceof LeaseDatabaseException) {
            ctx.header("Retry-After", "5");
            answer(ctx, 503, new ApiJson.Problem("database unavailable", e.getMessage()));
        } else {
            throw e;
        }
    }

    private static void answer(Context ctx, int status, Object value) {
        ctx.attribute(OpsServer.ANSWERED, true);
        ctx.status(status).contentType(JSON).header("Cache-Control", "no-store").result(ApiJson.write(value));
    }
}
