package dev.leasecron.app.web;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.leasecron.app.daemon.Daemon;
import dev.leasecron.app.ops.HealthCheck;
import dev.leasecron.app.ops.OpsServer;
import dev.leasecron.app.web.admin.AdminApi;
import dev.leasecron.app.web.admin.AdminToken;
import dev.leasecron.app.web.admin.RecordingControls;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.Secret;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import io.javalin.config.RoutesConfig;
import io.javalin.http.HandlerType;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.openqa.selenium.Alert;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import dev.leasecron.app.plugins.HttpJob;
import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.plugins.ShellJob;
import dev.leasecron.app.testing.DaemonThread;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.lease.LeaseTimings;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;

/**
 * The dashboard in a real browser: headless Chromium from Debian's packages, driven by Selenium,
 * against a daemon run in the test's JVM on SQLite with jobs due every second or two (one ok, one
 * failing whose name and error hold markup, one slow, one failing every other second). Each page loads with no error in the browser's
 * console, shows what the daemon did, and is written as screenshots at desktop and phone widths to
 * {@code target/screenshots/} for a person to look at.
 *
 * <p>The admin API's buttons are tried on a second server beside it: the dashboard and admin API over
 * an SQLite lease table of their own, with an admin token, acting through a fake that records what it
 * is asked (the daemon's own controls come with their implementation).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardBrowserIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final String PAYLOAD = "<script>alert(1)</script>";
    private static final String FAILING = "report " + PAYLOAD;
    private static final String FLAKY = "flaky-sync";
    private static final String INSTANCE = "browser-test-replica";
    private static final Dimension DESKTOP = new Dimension(1366, 900);
    private static final Dimension PHONE = new Dimension(390, 844);
    private static final Duration PATIENCE = Duration.ofSeconds(45);
    private static final String ADMIN_TOKEN = "browser-test-admin-token-5f4e3d2c1b";

    private final HttpClient client = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final Path screenshots = Path.of("target/screenshots");
    private Path dir;
    private Daemon daemon;
    private CompletableFuture<Void> running;
    private WebDriver browser;
    private String base;
    private TestDatabase adminDatabase;
    private OpsServer adminServer;
    private RecordingControls controls;
    /** The Authorization header of each POST the admin server received, as sent. */
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private String adminBase;

    @BeforeAll
    void start() throws Exception {
        requireChromium();
        dir = Files.createTempDirectory("leasecron-dashboard");
        int port = freePort();
        base = "http://127.0.0.1:" + port;
        Path file = Files.writeString(dir.resolve("jobs.yaml"), """
                database:
                  url: jdbc:sqlite:leases.db
                instance: %s
                http:
                  address: 127.0.0.1
                  port: %d
                shutdownGrace: 2s
                jobs:
                  - name: heartbeat
                    schedule: "* * * * * *"
                    type: shell
                    params: {command: "echo alive"}
                  - name: "%s"
                    schedule: "*/2 * * * * *"
                    type: shell
                    params: {command: "echo '%s' >&2; exit 1"}
                  - name: slow-export
                    schedule: "*/3 * * * * *"
                    type: shell
                    params: {command: "sleep 2"}
                  - name: %s
                    schedule: "* * * * * *"
                    type: shell
                    params: {command: "test $(( $(date +%%s) %% 2 )) -eq 0 || { echo 'odd second' >&2; exit 3; }"}
                  - name: nightly-backup
                    schedule: "30 3 * * *"
                    timeZone: Europe/Berlin
                    type: shell
                    params: {command: "true"}
                  - name: quarterly-archive
                    schedule: "0 4 1 1,4,7,10 *"
                    type: shell
                    enabled: false
                    params: {command: "true"}
                """.formatted(INSTANCE, port, FAILING, PAYLOAD, FLAKY));
        ConfigLoader loader = new ConfigLoader(Map.of(), JobTypeChecker.acceptAny());
        daemon = new Daemon(loader.load(file), file, loader, JobRegistry.of(new ShellJob(), new HttpJob()),
                LeaseTimings.DEFAULT);
        running = DaemonThread.start(daemon);
        // The history holds an ok round, a failed one, and the flaky job's both kinds.
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() -> {
            assertFalse(running.isDone(), "the daemon runs");
            JsonNode jobs = api("/api/v1/jobs").path("jobs");
            return "ok".equals(jobs.get(0).path("last_ended").path("outcome").asText())
                    && "failed".equals(jobs.get(1).path("last_ended").path("outcome").asText())
                    && outcomes(jobs.get(3).path("recent_rounds")).containsAll(List.of("ok", "failed"));
        });
        startAdminServer();
        browser = chromium();
    }

    private void startAdminServer() throws Exception {
        Path file = Files.writeString(dir.resolve("admin-jobs.yaml"), """
                jobs:
                  - name: "%s"
                    schedule: "0 4 * * *"
                    type: shell
                    params: {command: "true"}
                """.formatted(FAILING));
        List<JobSpec> jobs = new ConfigLoader(Map.of("LEASECRON_ADMIN_TOKEN", ADMIN_TOKEN), JobTypeChecker.acceptAny())
                .load(file).jobs();
        adminDatabase = TestDatabases.of("sqlite");
        Leases leases = Leases.named(adminDatabase.pool(2), LeaseTimings.DEFAULT, "admin-test-replica", LeaseListener.NONE);
        leases.initialize();
        controls = new RecordingControls(Set.of(FAILING));
        AdminApi admin = new AdminApi(AdminToken.of(Secret.of(ADMIN_TOKEN)), controls);
        Consumer<RoutesConfig> seen = routes -> routes.before(ctx -> {
            if (ctx.method() == HandlerType.POST) {
                authorizations.add(String.valueOf(ctx.header("Authorization")));
            }
        });
        adminServer = OpsServer.start(Optional.of("127.0.0.1"), 0, HealthCheck.ALWAYS_UP, HealthCheck.ALWAYS_UP,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), seen
                        .andThen(new Dashboard(new ReadModel(() -> jobs, leases, Clock.systemUTC()), admin.enabled()))
                        .andThen(admin));
        adminBase = "http://127.0.0.1:" + adminServer.port();
    }

    @AfterAll
    void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (adminServer != null) {
            adminServer.close();
            adminDatabase.close();
        }
        if (daemon != null) {
            daemon.stop();
            running.get(60, TimeUnit.SECONDS);
        }
        client.close();
    }

    @Test
    void jobsPageListsTheJobsWithSchedulesInWordsNextInstantsAndHolders() throws Exception {
        open("/");

        List<WebElement> rows = browser.findElements(By.cssSelector("table.jobs tbody tr"));
        assertEquals(6, rows.size());
        assertEquals(List.of("heartbeat", FAILING, "slow-export", FLAKY, "nightly-backup", "quarterly-archive"),
                texts(By.cssSelector("table.jobs .job-name")));
        assertTrue(rows.get(0).getText().contains("every second"), rows.get(0).getText());
        assertTrue(rows.get(4).getText().contains("at 03:30"), rows.get(4).getText());
        assertTrue(rows.get(4).getText().contains("Europe/Berlin"), rows.get(4).getText());
        assertTrue(rows.get(5).getText().contains("disabled"), rows.get(5).getText());
        assertTrue(rows.get(0).findElement(By.cssSelector("td[data-label='Last outcome']")).getText().contains("ok"),
                "the heartbeat's last round: " + rows.get(0).getText());
        assertTrue(rows.get(1).findElement(By.cssSelector("td[data-label='Last outcome']")).getText().contains("failed"),
                "the failing job's last round: " + rows.get(1).getText());
        assertFalse(rows.get(0).findElements(By.cssSelector(".strip li")).isEmpty(), "the heartbeat's strip of rounds");
        assertEquals(3, rows.get(0).findElements(By.cssSelector(".instants li")).size(), "next instants");
        assertTrue(rows.get(0).getText().contains(INSTANCE), "the replica that won its last instant: " + rows.get(0).getText());
        assertNoScriptRan();
        screenshots("jobs");
    }

    @Test
    void failingJobsNameAndErrorRenderAsText() throws Exception {
        open("/");
        WebElement link = browser.findElement(By.linkText(FAILING));
        link.click();
        settle();

        assertEquals(FAILING, browser.findElement(By.cssSelector("h1.job-title")).getText());
        // The newest row may be a round still running; the one before it has ended.
        WebElement round = browser.findElements(By.cssSelector("table.rounds tbody tr.round")).stream()
                .filter(row -> row.findElement(By.cssSelector(".outcome")).getText().contains("failed"))
                .findFirst().orElseThrow(() -> new AssertionError("no failed round on the page"));
        assertTrue(round.findElement(By.cssSelector("pre.detail")).getText().contains(PAYLOAD),
                "the round's error, as text: " + round.getText());
        assertNoScriptRan();
        assertNoConsoleErrors("the failing job's page");
        screenshots("job");
    }

    @Test
    void theOutcomeFilterIsAPlainGetFormThatNarrowsTheRounds() throws Exception {
        open(Texts.jobPath(FLAKY));
        List<String> all = texts(By.cssSelector("table.rounds .outcome"));
        assertTrue(all.stream().anyMatch(o -> o.contains("ok")) && all.stream().anyMatch(o -> o.contains("failed")),
                "unfiltered, both outcomes: " + all);

        new Select(browser.findElement(By.id("outcome"))).selectByValue("failed");
        new Select(browser.findElement(By.id("limit"))).selectByValue("20");
        browser.findElement(By.cssSelector("form.filter button[type=submit]")).click();
        settle();

        assertTrue(browser.getCurrentUrl().endsWith("?outcome=failed&limit=20"), browser.getCurrentUrl());
        assertEquals("failed", new Select(browser.findElement(By.id("outcome"))).getFirstSelectedOption()
                .getAttribute("value"));
        List<String> failed = texts(By.cssSelector("table.rounds .outcome"));
        assertFalse(failed.isEmpty(), "the flaky job failed on odd seconds");
        assertTrue(failed.stream().allMatch(o -> o.contains("failed")), "only failed rounds: " + failed);
        assertTrue(browser.findElement(By.cssSelector("table.rounds")).getText().contains("odd second"),
                "the failed rounds' error");
        assertNoConsoleErrors("the filtered job page");

        open("/jobs/heartbeat?outcome=failed");
        assertTrue(browser.findElements(By.cssSelector("table.rounds tbody tr")).isEmpty(), "heartbeat never failed");
    }

    @Test
    void replicasPageShowsTheTestReplica() throws Exception {
        open("/replicas");

        List<String> names = texts(By.cssSelector("table.replicas .replica-name"));
        assertEquals(List.of(INSTANCE), names);
        String row = browser.findElement(By.cssSelector("table.replicas tbody tr")).getText();
        assertTrue(row.contains("this replica"), row);
        assertTrue(row.contains("heartbeat"), "it won the heartbeat's last instant: " + row);
        screenshots("replicas");
    }

    @Test
    void apiReturnsTheJobsThePageLists() throws Exception {
        open("/");
        List<String> onPage = texts(By.cssSelector("table.jobs .job-name"));

        JsonNode api = api("/api/v1/jobs");
        List<String> inApi = new ArrayList<>();
        api.path("jobs").forEach(job -> inApi.add(job.path("name").asText()));

        assertEquals(onPage, inApi);
        assertEquals(INSTANCE, api.path("instance").asText());
        assertEquals("every second", api.path("jobs").get(0).path("schedule_in_words").asText());
    }

    @Test
    void withoutAnAdminTokenAJobPageHasNoButtons() {
        open("/jobs/heartbeat");

        assertTrue(browser.findElements(By.id("actions")).isEmpty(), "no actions without http.adminToken");
        assertTrue(browser.findElements(By.tagName("button")).stream().noneMatch(b -> b.getText().contains("Run now")));
    }

    @Test
    void theButtonsAskFirstSendTheTokenInTheHeaderAndShowTheAnswer() throws Exception {
        browser.get(adminBase + Texts.jobPath(FAILING));
        settle();
        WebElement runNow = browser.findElement(By.id("run-now"));
        assertTrue(runNow.isDisplayed() && runNow.isEnabled(), "the script enabled the buttons");
        assertTrue(browser.findElement(By.id("suspend")).getText().startsWith("Suspend"));
        assertTrue(browser.findElement(By.id("resume")).isEnabled());
        assertNoScriptRan();
        assertNoConsoleErrors("the job page with buttons");

        runNow.click();
        assertEquals("Enter the admin token first.", result());
        assertEquals(List.of(), authorizations, "nothing sent without a token");

        WebElement token = browser.findElement(By.id("admin-token"));
        token.sendKeys("not-the-admin-token");
        runNow.click();
        Alert confirm = alert();
        assertEquals("Run " + FAILING + " now, once, on one replica?", confirm.getText());
        confirm.dismiss();
        assertEquals(List.of(), authorizations, "a dismissed confirmation sends nothing");

        runNow.click();
        alert().accept();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> result().startsWith("Refused (403)"));
        assertEquals(List.of("Bearer not-the-admin-token"), authorizations);
        assertEquals(List.of(), controls.changes(), "a wrong token changes nothing");
        browser.manage().logs().get(LogType.BROWSER); // the 403 is a console error of its own: drained here

        token.clear();
        token.sendKeys(ADMIN_TOKEN);
        browser.findElement(By.id("admin-token-keep")).click();
        runNow.click();
        alert().accept();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> result().startsWith("Run request "));
        assertEquals("Bearer " + ADMIN_TOKEN, authorizations.getLast(), "the token went in the Authorization header");
        assertEquals(1, controls.changes().size(), controls.changes().toString());
        String requestId = controls.changes().getFirst().split(" ")[controls.changes().getFirst().split(" ").length - 2];
        assertTrue(controls.changes().getFirst().endsWith(requestId + " admin"), controls.changes().toString());
        assertEquals("Run request " + requestId + ": pending", result(), "shown after the page's reload");
        assertEquals(ADMIN_TOKEN, browser.findElement(By.id("admin-token")).getDomProperty("value"),
                "kept for this tab, as asked");
        assertEquals(ADMIN_TOKEN, ((ChromeDriver) browser).executeScript(
                "return window.sessionStorage.getItem('leasecron.adminToken')"));
        assertEquals(null, ((ChromeDriver) browser).executeScript(
                "return window.localStorage.getItem('leasecron.adminToken')"), "never beyond the tab");
        assertTrue(browser.manage().getCookies().isEmpty(), "no cookie carries anything");

        browser.findElement(By.id("suspend")).click();
        Alert reason = alert();
        assertTrue(reason.getText().startsWith("Why suspend " + FAILING + "?"), reason.getText());
        reason.sendKeys("disk full");
        reason.accept();
        Alert sure = alert();
        assertTrue(sure.getText().startsWith("Suspend " + FAILING + " on every replica?"), sure.getText());
        sure.accept();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> result().equals("Suspended " + FAILING + "."));

        browser.findElement(By.id("resume")).click();
        alert().accept();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> result().equals(FAILING + " was not suspended."));
        assertEquals(List.of("suspend " + FAILING + " admin disk full", "resume " + FAILING + " admin"),
                controls.changes().subList(1, 3));
        assertNoScriptRan();
        assertNoConsoleErrors("the job page after its actions");
        screenshots("job-actions");
    }

    private String result() {
        return browser.findElement(By.id("action-result")).getText();
    }

    private Alert alert() {
        return new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.alertIsPresent());
    }

    private void open(String path) {
        browser.get(base + path);
        settle();
        assertEquals("leasecron", browser.findElement(By.cssSelector(".brand")).getText(), "the page loaded: " + path);
        assertNoConsoleErrors(path);
    }

    /** Waits for the page and its files, so that a screenshot shows it styled. */
    private void settle() {
        await().atMost(Duration.ofSeconds(10)).until(() -> "complete".equals(
                ((ChromeDriver) browser).executeScript("return document.readyState")));
    }

    private void assertNoConsoleErrors(String what) {
        List<LogEntry> severe = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
        assertTrue(severe.isEmpty(), what + ": " + severe);
    }

    /** The payload is text: no alert is open and no script element holds it. */
    private void assertNoScriptRan() {
        assertThrows(NoAlertPresentException.class, () -> browser.switchTo().alert());
        String origin = browser.getCurrentUrl().substring(0, browser.getCurrentUrl().indexOf('/', "http://".length()));
        for (WebElement script : browser.findElements(By.tagName("script"))) {
            assertEquals(origin + "/static/refresh.js", script.getAttribute("src"), "the page's only script");
        }
        assertTrue(browser.findElement(By.tagName("body")).getText().contains(PAYLOAD), "the payload shows as text");
    }

    private void screenshots(String page) throws IOException {
        Files.createDirectories(screenshots);
        for (Map.Entry<String, Dimension> size : Map.of("desktop", DESKTOP, "phone", PHONE).entrySet()) {
            viewport(size.getValue());
            settle();
            Path shot = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(shot, screenshots.resolve(page + "-" + size.getKey() + ".png"), StandardCopyOption.REPLACE_EXISTING);
        }
        viewport(DESKTOP);
    }

    /** Sizes the window so that the page itself (the viewport) gets {@code size}. */
    private void viewport(Dimension size) {
        browser.manage().window().setSize(size);
        Object inner = ((ChromeDriver) browser).executeScript("return [window.innerWidth, window.innerHeight]");
        List<?> got = (List<?>) inner;
        int width = size.getWidth() + size.getWidth() - ((Number) got.get(0)).intValue();
        int height = size.getHeight() + size.getHeight() - ((Number) got.get(1)).intValue();
        browser.manage().window().setSize(new Dimension(width, height));
    }

    private List<String> texts(By by) {
        return browser.findElements(by).stream().map(WebElement::getText).toList();
    }

    private JsonNode api(String path) throws IOException, InterruptedException {
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), path + ": " + answer.body());
        return json.readTree(answer.body());
    }

    private static List<String> outcomes(JsonNode rounds) {
        List<String> outcomes = new ArrayList<>();
        rounds.forEach(round -> outcomes.add(round.path("outcome").asText()));
        return outcomes;
    }

    private WebDriver chromium() throws IOException {
        // The Debian driver, never one Selenium Manager would download.
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars",
                "--window-size=" + DESKTOP.getWidth() + "," + DESKTOP.getHeight(),
                "--user-data-dir=" + Files.createTempDirectory(dir, "chromium-profile"));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** Chromium and its driver from Debian's packages: CI installs them; elsewhere the test skips without. */
    private static void requireChromium() {
        if (Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER)) {
            return;
        }
        String why = CHROMIUM + " or " + CHROMEDRIVER + " is missing: apt-get install chromium chromium-driver";
        if (Boolean.parseBoolean(System.getenv("LEASECRON_TEST_REQUIRE_SERVERS"))) {
            throw new IllegalStateException(why);
        }
        Assumptions.abort(why);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
