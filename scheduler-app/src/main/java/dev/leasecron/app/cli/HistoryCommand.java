package dev.leasecron.app.cli;

import dev.leasecron.app.db.SqliteFiles;
import dev.leasecron.app.web.api.ApiJson;
import dev.leasecron.config.ConfigLoader;
import dev.leasecron.config.DataSourceSpec;
import dev.leasecron.config.DatabaseSpec;
import dev.leasecron.config.HistorySpec;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobTypeChecker;
import dev.leasecron.config.UsableConfig;
import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryQuery;
import dev.leasecron.lease.HistoryTrigger;
import dev.leasecron.lease.LeaseDatabaseException;
import dev.leasecron.lease.LeaseListener;
import dev.leasecron.lease.LeaseTimings;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.UnsupportedDatabaseException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code leasecron history --config FILE [--job NAME] [--outcome failed,timeout] [--since 24h] [--limit 50]
 * [--format table|json]}: the round history of the file's jobs, newest instant first, read from the
 * primary database: the rounds that ran (where, how they ended, how late and how long) and the spans
 * of instants that did not run. It only reads, as {@code status} does.
 */
@Command(
        name = "history",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Shows the rounds of the jobs and the instants that did not run, newest first."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:shown", "1:the jobs file has errors, the history is off, or the database could not be read",
                "2:wrong usage"})
final class HistoryCommand implements Callable<Integer> {
    private static final int ERROR_CELL = 60;

    @Mixin
    ConfigFileOption config;

    @Spec
    CommandSpec spec;

    @Option(names = "--job", paramLabel = "NAME", description = "Only this job (repeatable).")
    List<String> jobs = new ArrayList<>();

    @Option(names = "--outcome", paramLabel = "LIST", split = ",",
            description = "Only these outcomes, comma-separated: ok, failed, timeout, cut_short, running, skipped,"
                    + " missed, superseded, suspended.")
    List<String> outcomes = new ArrayList<>();

    @Option(names = "--since", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Only instants at most this old, such as 24h or 7d.")
    Duration since;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "At most N rows (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table", description = "table or json (default ${DEFAULT-VALUE}).")
    String format;

    private final CliContext context;

    HistoryCommand(CliContext context) {
        this.context = context;
    }

    /** The history's settings in one line, as {@code validate} prints them. */
    static String describe(HistorySpec h) {
        return h.enabled()
                ? "history: on, rows kept " + Ages.of(h.retain()) + ", at most " + h.maxRowsPerJob() + " per job"
                : "history: off (history.enabled: false)";
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Set<HistoryOutcome> wanted = outcomes();
        Optional<Duration> within = Optional.ofNullable(since);
        if (limit < 1) {
            throw new ParameterException(spec.commandLine(), "--limit must be at least 1, was " + limit);
        }
        if (!format.equals("table") && !format.equals("json")) {
            throw new ParameterException(spec.commandLine(), "--format is table or json, was \"" + format + "\"");
        }
        UsableConfig usable = new ConfigLoader(context.environment(), JobTypeChecker.acceptAny()).loadUsable(config.file);
        usable.errors().forEach(err::println);
        err.flush();
        if (usable.database().isEmpty() || usable.history().isEmpty()) {
            return 1;
        }
        if (!usable.history().get().enabled()) {
            err.println("the round history is off (history.enabled: false in " + config.file + "): nothing is recorded");
            err.flush();
            return 1;
        }
        Map<String, String> byLeaseName = new LinkedHashMap<>();
        for (JobSpec job : usable.jobs()) {
            if (jobs.isEmpty() || jobs.contains(job.name())) {
                byLeaseName.put(job.leaseName(), job.name());
            }
        }
        List<String> unknown = jobs.stream().filter(j -> !byLeaseName.containsValue(j)).toList();
        if (!unknown.isEmpty()) {
            err.println("no job " + String.join(", ", unknown) + " in " + config.file);
            err.flush();
            return 1;
        }
        int found = usable.errors().isEmpty() ? 0 : 1;
        DatabaseSpec database = usable.database().get();
        DataSourceSpec primary = CliDatabase.primary(database, config.file);
        String where = "database " + primary.maskedUrl();
        Optional<Path> file = SqliteFiles.file(primary.url());
        if (file.isPresent() && !Files.exists(file.get())) {
            err.println(where + ": nothing there yet: no file " + file.get().toAbsolutePath() + " (leasecron run creates it)");
            err.flush();
            return found;
        }
        try {
            Leases leases = Leases.create(StatusCommand.readOnly(primary), LeaseTimings.DEFAULT,
                    usable.instance().orElse("history"), LeaseListener.NONE);
            if (!leases.openExisting() || !leases.history().exists()) {
                err.println(where + ": no history yet (leasecron run creates it)");
                err.flush();
                return found;
            }
            Instant now = leases.readDatabaseClock();
            List<HistoryEntry> rows = byLeaseName.isEmpty() ? List.of() : leases.history().entries(new HistoryQuery(
                    byLeaseName.keySet(), wanted, within.map(now::minus), limit));
            if (format.equals("json")) {
                printJson(out, rows, byLeaseName);
            } else {
                printTable(out, rows, byLeaseName, now);
            }
            out.flush();
            return found;
        } catch (LeaseDatabaseException | UnsupportedDatabaseException e) {
            err.println(where + ": " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    private Set<HistoryOutcome> outcomes() {
        Set<HistoryOutcome> wanted = new LinkedHashSet<>();
        for (String label : outcomes) {
            if (label.isBlank()) {
                continue;
            }
            try {
                wanted.add(HistoryOutcome.ofLabel(label));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--outcome: unknown outcome \"" + label.trim()
                        + "\"; one of " + String.join(", ", Arrays.stream(HistoryOutcome.values()).map(HistoryOutcome::label).toList()));
            }
        }
        return wanted;
    }

    private static void printTable(PrintWriter out, List<HistoryEntry> rows, Map<String, String> jobs, Instant now) {
        TextTable table = new TextTable("JOB", "INSTANT", "OUTCOME", "TRIGGER", "RERUN", "INSTANCE", "DELAY", "DURATION", "ERROR");
        for (HistoryEntry e : rows) {
            String instant = e.instants() > 1 ? e.instant() + " .. " + e.lastInstant() + " (" + e.instants() + ")"
                    : e.instant().toString();
            String duration = e.duration().map(Ages::of)
                    .orElse(e.outcome() == HistoryOutcome.RUNNING ? e.started().map(s -> "running " + Ages.of(Duration.between(s, now))).orElse("-") : "-");
            table.add(jobs.getOrDefault(e.name(), e.name()), instant, e.outcome().label(),
                    e.trigger().map(HistoryTrigger::label).orElse("-"), e.outcome().ran() ? (e.rerun() ? "yes" : "no") : "-",
                    e.instance().isEmpty() ? "-" : e.instance(), e.fireDelay().map(Ages::of).orElse("-"), duration,
                    oneLine(e.detail()));
        }
        table.print(out);
    }

    /** The first line of {@code text}, cut to a table cell. */
    static String oneLine(String text) {
        if (text == null || text.isBlank()) {
            return "-";
        }
        String line = text.strip().lines().findFirst().orElse("");
        return line.length() <= ERROR_CELL ? line : line.substring(0, ERROR_CELL - 3) + "...";
    }

    private static void printJson(PrintWriter out, List<HistoryEntry> rows, Map<String, String> jobs) {
        out.println(ApiJson.history(rows, name -> jobs.getOrDefault(name, name)));
    }
}
