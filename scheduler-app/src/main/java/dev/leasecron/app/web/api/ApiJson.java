package dev.leasecron.app.web.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.leasecron.app.web.HolderView;
import dev.leasecron.app.web.JobView;
import dev.leasecron.app.web.Pages;
import dev.leasecron.app.web.ReplicaView;
import dev.leasecron.config.JobSpec;
import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryTrigger;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.Suspension;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The JSON API's shapes ({@code /api/v1/...}): snake_case keys, instants as ISO-8601 UTC strings
 * ({@code 2026-12-06T18:50:05Z}), durations as whole milliseconds ({@code duration_ms}), a missing
 * value as {@code null}. Each answer is one object ({@code {"jobs": [...]}}), so fields can be added
 * without breaking a reader; {@code errors} lists the reads that failed, as on the pages.
 */
public final class ApiJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.ALWAYS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private ApiJson() {}

    public record Jobs(String instance, String generatedAt, List<Job> jobs, List<String> errors) {}

    public record Job(String name, String schedule, String scheduleInWords, String timeZone, String type,
            boolean enabled, String scope, Suspended suspended, List<String> nextInstants, Holder holder,
            Round lastEnded, List<Round> recentRounds) {}

    /** {@code runningInstant}: the instant of a scheduled round running now; {@code runRequest}: the id of a manual one. */
    public record Holder(String instance, long term, boolean held, String expiresAt, String runningInstant,
            String runRequest) {}

    public record Round(String instant, String lastInstant, long instants, String outcome, String trigger,
            String instance, long term, boolean rerun, String requestedBy, String startedAt, String endedAt,
            Long fireDelayMs, Long durationMs, String detail) {}

    public record Rounds(String job, String outcome, int limit, List<Round> rounds, List<String> errors) {}

    /** A round of the history across jobs, as {@code leasecron history --format json} prints it: a round and its job. */
    public record JobRound(String job, @JsonUnwrapped Round round) {}

    public record Replicas(String instance, String generatedAt, long windowSeconds, List<Replica> replicas,
            List<String> errors) {}

    public record Replica(String instance, boolean self, boolean claimingLately, List<String> wonLast,
            List<String> holds, List<String> running) {}

    public record Error(String error, String job) {}

    /** A refused or failed request: what went wrong, and what to do about it. */
    public record Problem(String error, String detail) {}

    /** A run request ({@code POST /api/v1/jobs/NAME/runs}, {@code GET /api/v1/runs/ID}). */
    public record Run(String id, String job, String state, String requestedBy, String requestedAt, String instance,
            Long term, String outcome) {}

    /** A run request's id not on record. */
    public record UnknownRun(String error, String id) {}

    /**
     * A suspend or resume: whether the job is suspended now, and whether this request changed that.
     */
    public record Switch(String job, boolean suspended, boolean changed) {}

    /** A job an operator suspended: by whom (a token's name or a user), why, since when. */
    public record Suspended(String by, String reason, String since) {}

    public static Jobs jobs(Pages.JobsPage page) {
        return new Jobs(page.instance(), page.now().toString(), page.jobs().stream().map(ApiJson::job).toList(),
                page.errors());
    }

    public static Rounds rounds(Pages.JobPage page) {
        return new Rounds(page.job().name(), page.filter().outcome().map(o -> o.label()).orElse(null),
                page.filter().limit(), page.rounds().stream().map(r -> round(r.entry())).toList(), page.errors());
    }

    public static Job job(JobView job) {
        return new Job(job.name(), job.schedule(), job.scheduleInWords(), job.zone(), job.type(), job.enabled(),
                job.scope(), job.suspension().map(ApiJson::suspended).orElse(null),
                job.next().stream().map(Instant::toString).toList(),
                job.holder().filter(HolderView::held).map(ApiJson::holder).orElse(null),
                job.last().map(r -> round(r.entry())).orElse(null),
                job.recent().reversed().stream().map(r -> round(r.entry())).toList());
    }

    /** {@code request} as the admin API shows it, named by its job rather than its lease. */
    public static Run run(RunRequest request) {
        String job = request.name().startsWith(JobSpec.LEASE_PREFIX)
                ? request.name().substring(JobSpec.LEASE_PREFIX.length()) : request.name();
        return new Run(request.id(), job, request.state().name().toLowerCase(Locale.ROOT), request.requestedBy(),
                request.requestedAt().toString(), request.instance().orElse(null),
                request.term() == 0 ? null : request.term(), request.outcome().map(HistoryOutcome::label).orElse(null));
    }

    public static Replicas replicas(Pages.ReplicasPage page) {
        return new Replicas(page.instance(), page.now().toString(), page.window().value().toSeconds(),
                page.replicas().stream().map(ApiJson::replica).toList(), page.errors());
    }

    private static Suspended suspended(Suspension s) {
        return new Suspended(s.by(), s.reason(), s.since().toString());
    }

    private static Replica replica(ReplicaView r) {
        return new Replica(r.instance(), r.self(), r.claimingLately(), r.won(), r.holds(), r.running());
    }

    private static Holder holder(HolderView h) {
        return new Holder(h.instance(), h.term(), h.held(), h.expiresAt().toString(),
                h.runningInstant().map(Instant::toString).orElse(null), h.manual().map(RunRequest::id).orElse(null));
    }

    static Round round(HistoryEntry e) {
        return new Round(e.instant().toString(), e.lastInstant().toString(), e.instants(), e.outcome().label(),
                e.trigger().map(HistoryTrigger::label).orElse(null), e.instance(), e.term(), e.rerun(),
                e.requestedBy().isEmpty() ? null : e.requestedBy(), e.started().map(Instant::toString).orElse(null),
                e.ended().map(Instant::toString).orElse(null), e.fireDelay().map(Duration::toMillis).orElse(null),
                e.duration().map(Duration::toMillis).orElse(null), e.detail().isEmpty() ? null : e.detail());
    }

    /** The rows of the history as an indented JSON array, each named by its job ({@code jobOf} a lease name). */
    public static String history(List<HistoryEntry> rows, Function<String, String> jobOf) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(
                    rows.stream().map(e -> new JobRound(jobOf.apply(e.name()), round(e))).toList());
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code value} as JSON text. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
