package dev.leasecron.app.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.leasecron.app.web.api.ApiJson;
import dev.leasecron.config.CatchUp;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.Schedule;
import dev.leasecron.config.Scope;
import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryTrigger;
import dev.leasecron.lease.LeaseRow;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.RunRequestState;
import dev.leasecron.lease.Suspension;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every place user data reaches a page is escaped by the templates: the job name, its type, the
 * replica names, an error, a request's author, a suspension's reason, and the messages of reads that
 * failed.
 */
class DashboardTemplatesTest {
    private static final String PAYLOAD = "<script>alert(1)</script>\"'&";
    private static final String ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;";
    private static final Instant NOW = Instant.parse("2026-12-06T18:00:00Z");

    private final Templates templates = new Templates();
    private final JobSpec spec = new JobSpec("job" + PAYLOAD, Schedule.parse("*/5 * * * * *", ZoneId.of("UTC")),
            "type" + PAYLOAD, CatchUp.LATEST, Duration.ofMinutes(1), true, Scope.CLUSTER, Map.of());
    private final RoundView failed = new RoundView(new HistoryEntry(spec.leaseName(), NOW, NOW, 1,
            HistoryOutcome.FAILED, Optional.of(HistoryTrigger.SCHEDULED), 3, "token", "replica" + PAYLOAD, false,
            "", Optional.of(NOW), Optional.of(NOW.plusMillis(40)), Optional.of(Duration.ofMillis(5)),
            Optional.of(Duration.ofMillis(40)), "command exited with code 1: " + PAYLOAD));
    private final HolderView holder = new HolderView(new LeaseRow(spec.leaseName(), "token", "replica" + PAYLOAD, 3,
            NOW.plusSeconds(10).toEpochMilli(), NOW.toEpochMilli(), NOW.toEpochMilli(), 0, NOW.toEpochMilli()),
            Optional.empty());
    private final JobView job = new JobView(spec, List.of(NOW.plusSeconds(5)), Optional.of(holder), Optional.of(failed),
            List.of(failed));

    @Test
    void jobsPageEscapesNamesTypesReplicasAndErrors() {
        String html = templates.render("index.jte", new Pages.JobsPage("self" + PAYLOAD, NOW, List.of(job),
                List.of("lease rows not available: " + PAYLOAD)));

        assertEscaped(html);
        assertTrue(html.contains("href=\"/jobs/job%3Cscript%3Ealert%281%29%3C/script%3E%22%27%26\""), html);
    }

    @Test
    void jobPageEscapesTheErrorOfAFailedRound() {
        String html = templates.render("job.jte", new Pages.JobPage("self" + PAYLOAD, NOW, job,
                RoundFilter.of("failed", "20"), List.of(failed), List.of()));

        assertEscaped(html);
        assertTrue(html.contains("command exited with code 1: " + ESCAPED), html);
        assertTrue(html.contains("<option value=\"failed\" selected>failed</option>"), "the filter shows its choice");
    }

    @Test
    void aSuspendedJobSaysByWhomAndWhyEscapedOnItsPageAndInItsJson() throws Exception {
        JobView suspended = new JobView(spec, List.of(), Optional.of(holder), Optional.of(failed), List.of(failed),
                Optional.of(new Suspension(spec.leaseName(), "admin", "disk full " + PAYLOAD, NOW)));

        String html = templates.render("job.jte", new Pages.JobPage("self", NOW, suspended, RoundFilter.of(null, null),
                List.of(), List.of()));
        assertEscaped(html);
        assertTrue(html.contains("by admin: disk full " + ESCAPED), html);
        assertEscaped(templates.render("index.jte", new Pages.JobsPage("self", NOW, List.of(suspended), List.of())));

        JsonNode json = new ObjectMapper().readTree(ApiJson.write(ApiJson.job(suspended)));
        assertEquals("admin", json.path("suspended").path("by").asText());
        assertEquals("disk full " + PAYLOAD, json.path("suspended").path("reason").asText());
        assertEquals(NOW.toString(), json.path("suspended").path("since").asText());
        assertTrue(new ObjectMapper().readTree(ApiJson.write(ApiJson.job(job))).path("suspended").isNull());
    }

    @Test
    void aManualRoundShowsAsRunningWithItsRequesterEscapedOnBothPagesAndInItsJson() throws Exception {
        // A manual round is no instant: the lease row says nothing runs, the run request says it does.
        LeaseRow row = new LeaseRow(spec.leaseName(), "token", "replica", 4, NOW.plusSeconds(10).toEpochMilli(),
                NOW.toEpochMilli(), 0, 0, NOW.toEpochMilli());
        RunRequest request = new RunRequest("req-1", spec.leaseName(), "alice" + PAYLOAD, NOW, RunRequestState.RUNNING,
                Optional.of("replica"), 4, Optional.of(HistoryOutcome.RUNNING));
        JobView manual = new JobView(spec, List.of(), Optional.of(new HolderView(row, Optional.of(request))),
                Optional.empty(), List.of());

        for (String html : List.of(
                templates.render("index.jte", new Pages.JobsPage("self", NOW, List.of(manual), List.of())),
                templates.render("job.jte", new Pages.JobPage("self", NOW, manual, RoundFilter.of(null, null), List.of(),
                        List.of())))) {
            assertEscaped(html);
            assertTrue(html.contains("running</span>"), html);
            assertTrue(html.contains("run now · asked by alice" + ESCAPED), html);
        }
        JsonNode holder = new ObjectMapper().readTree(ApiJson.write(ApiJson.job(manual))).path("holder");
        assertEquals("req-1", holder.path("run_request").asText());
        assertTrue(holder.path("running_instant").isNull(), holder.toString());
        JsonNode scheduled = new ObjectMapper().readTree(ApiJson.write(ApiJson.job(job))).path("holder");
        assertEquals(NOW.toString(), scheduled.path("running_instant").asText());
        assertTrue(scheduled.path("run_request").isNull(), scheduled.toString());
    }

    @Test
    void theButtonsAreOfferedOnlyWhenAsked() {
        Pages.JobPage page = new Pages.JobPage("self", NOW, job, RoundFilter.of(null, null), List.of(), List.of());

        assertFalse(templates.render("job.jte", page).contains("id=\"actions\""));
        String html = templates.render("job.jte", page.withActions(true));
        assertTrue(html.contains("id=\"actions\""), html);
        assertTrue(html.contains("data-job=\"job&lt;script>alert(1)&lt;/script>&#34;&#39;&amp;\""), "escaped as an attribute: " + html);
        assertTrue(html.contains("<noscript>"), "says the buttons need JavaScript");
    }

    @Test
    void replicasAndNotFoundPagesEscapeNames() {
        assertEscaped(templates.render("replicas.jte", new Pages.ReplicasPage("self" + PAYLOAD, NOW,
                new Pages.Duration(Duration.ofMinutes(10)), List.of(new ReplicaView("replica" + PAYLOAD, false, true,
                        List.of(spec.name()), List.of(spec.name()), List.of(spec.name()))), List.of())));
        assertEscaped(templates.render("notfound.jte", new Pages.NotFound("self" + PAYLOAD, NOW, "job" + PAYLOAD)));
    }

    private static void assertEscaped(String html) {
        assertFalse(html.contains("<script>alert"), html);
        assertTrue(html.contains(ESCAPED), html);
        // The only script element is the page's own file.
        assertTrue(html.indexOf("<script") == html.lastIndexOf("<script"), html);
    }
}
