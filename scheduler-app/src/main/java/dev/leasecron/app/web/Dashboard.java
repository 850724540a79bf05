package dev.leasecron.app.web;

import dev.leasecron.app.ops.OpsServer;
import dev.leasecron.app.web.admin.AdminApi;
import dev.leasecron.app.web.api.ApiJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The dashboard's routes on the ops port, all GET:
 *
 * <ul>
 *   <li>{@code /}: the jobs, {@code /jobs/NAME}: a job's rounds ({@code ?outcome=failed&limit=50}),
 *       {@code /replicas}: the replicas sharing the jobs; HTML that works without JavaScript;
 *   <li>{@code /api/v1/jobs}, {@code /api/v1/jobs/NAME}, {@code /api/v1/jobs/NAME/rounds} (same
 *       filter) and {@code /api/v1/replicas}: the same data as JSON (see {@link ApiJson});
 *   <li>{@code /static/dashboard.css}, {@code /static/refresh.js} and {@code /static/favicon.svg}.
 * </ul>
 *
 * An unknown job is 404, as a page or as JSON. With the admin API on, a job's page offers its buttons
 * and a GET of an action's path ({@code /api/v1/jobs/NAME/runs}) is 405. Every answer carries a Content-Security-Policy that
 * allows the page's own origin only (no inline script or style), {@code nosniff}, and
 * {@code no-store} for the data.
 */
public final class Dashboard implements Consumer<RoutesConfig> {
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
    private static final String HTML = "text/html; charset=utf-8";
    private static final String JSON = "application/json";
    private static final String ROUNDS_SUFFIX = "/rounds";

    private final ReadModel model;
    private final boolean actions;
    private final Templates templates = new Templates();
    private final StaticAssets assets = new StaticAssets();

    /** The dashboard without the admin API's buttons. */
    public Dashboard(ReadModel model) {
        this(model, false);
    }

    /**
     * @param actions whether the admin API is on ({@link AdminApi#enabled()}): job pages then offer its
     *     buttons, and a GET of an action's path is 405
     */
    public Dashboard(ReadModel model, boolean actions) {
        this.model = model;
        this.actions = actions;
    }

    @Override
    public void accept(RoutesConfig routes) {
        routes.before(Dashboard::headers);
        OpsServer.read(routes, "/", ctx -> html(ctx, 200, templates.render("index.jte", model.jobsPage())));
        OpsServer.read(routes, "/replicas", ctx -> html(ctx, 200, templates.render("replicas.jte", model.replicasPage())));
        OpsServer.read(routes, "/jobs/<name>", ctx -> jobPage(ctx, ctx.pathParam("name")));
        OpsServer.read(routes, "/api/v1/jobs", ctx -> json(ctx, 200, ApiJson.jobs(model.jobsPage())));
        OpsServer.read(routes, "/api/v1/replicas", ctx -> json(ctx, 200, ApiJson.replicas(model.replicasPage())));
        // One catch-all: a job name may hold "/", so ".../rounds" is told apart by its end.
        OpsServer.read(routes, "/api/v1/jobs/<name>", ctx -> jobJson(ctx, ctx.pathParam("name")));
        OpsServer.read(routes, "/static/{file}", this::asset);
    }

    private static void headers(Context ctx) {
        ctx.header("Content-Security-Policy", CSP);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.header("X-Frame-Options", "DENY");
    }

    private void jobPage(Context ctx, String name) {
        RoundFilter filter = RoundFilter.of(ctx.queryParam("outcome"), ctx.queryParam("limit"));
        Optional<Pages.JobPage> page = model.jobPage(name, filter);
        if (page.isPresent()) {
            html(ctx, 200, templates.render("job.jte", page.get().withActions(actions)));
        } else {
            html(ctx, 404, templates.render("notfound.jte", new Pages.NotFound(model.instance(), Instant.now(), name)));
        }
    }

    private void jobJson(Context ctx, String path) {
        RoundFilter filter = RoundFilter.of(ctx.queryParam("outcome"), ctx.queryParam("limit"));
        Optional<Pages.JobPage> whole = model.jobPage(path, filter);
        if (whole.isPresent()) {
            json(ctx, 200, ApiJson.job(whole.get().job()));
            return;
        }
        if (path.endsWith(ROUNDS_SUFFIX)) {
            String name = path.substring(0, path.length() - ROUNDS_SUFFIX.length());
            Optional<Pages.JobPage> rounds = model.jobPage(name, filter);
            if (rounds.isPresent()) {
                json(ctx, 200, ApiJson.rounds(rounds.get()));
                return;
            }
            path = name;
        }
        if (actions && AdminApi.isAction(path)) {
            ctx.header("Allow", "POST");
            json(ctx, 405, new ApiJson.Problem("method not allowed", "an action is a POST with the admin token"));
            return;
        }
        json(ctx, 404, new ApiJson.Error("unknown job", path));
    }

    private void asset(Context ctx) {
        Optional<StaticAssets.Asset> asset = assets.get(ctx.pathParam("file"));
        if (asset.isEmpty()) {
            ctx.status(404);
            return;
        }
        ctx.status(200).contentType(asset.get().contentType()).header("Cache-Control", "max-age=300")
                .result(asset.get().bytes());
    }

    private static void html(Context ctx, int status, String body) {
        answer(ctx, status, HTML, body);
    }

    private static void json(Context ctx, int status, Object value) {
        answer(ctx, status, JSON, ApiJson.write(value));
    }

    private static void answer(Context ctx, int status, String contentType, String body) {
        ctx.attribute(OpsServer.ANSWERED, true);
        ctx.status(status).contentType(contentType).header("Cache-Control", "no-store").result(body);
    }
}
