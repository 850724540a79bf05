package dev.leasecron.config;

import dev.leasecron.lease.LeaseName;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/** Binds the {@code jobs:} list, checking each job and the names across jobs. */
final class JobBinder {
    static final List<String> KEYS =
            List.of("name", "schedule", "timeZone", "type", "catchUp", "timeout", "enabled", "scope", "params");

    private static final Map<String, CatchUp> CATCH_UPS = byYamlName(CatchUp.values(), CatchUp::yamlName);
    private static final Map<String, Scope> SCOPES = byYamlName(Scope.values(), Scope::yamlName);
    private static final ZoneId DEFAULT_ZONE = ZoneId.of("UTC");
    private static final Duration NEVER_FIRES_HORIZON = Duration.ofDays(8 * 366);
    private static final int MAX_NAME_BYTES = LeaseName.MAX_BYTES - JobSpec.LEASE_PREFIX.length();

    private final ErrorCollector errors;
    private final JobTypeChecker types;
    private final Map<String, Position> namesSeen = new HashMap<>();
    /**
     * The schedules bound so far, one per expression and zone: jobs that share them share one
     * {@link Schedule} and the instants it has found, so a replica evaluates each instant of an
     * expression once rather than once per job (most of its allocation, with many jobs on a few
     * expressions).
     */
    private final Map<Schedule, Schedule> schedules = new HashMap<>();

    JobBinder(ErrorCollector errors, JobTypeChecker types) {
        this.errors = errors;
        this.types = types;
    }

    /** The job at {@code path}, or empty when it has errors (all of them recorded). */
    Optional<JobSpec> bind(YamlNode node, String path) {
        Optional<FieldReader> found = FieldReader.of(node, path, errors, KEYS);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        FieldReader job = found.get();
        Optional<String> name = job.requiredString("name").filter(n -> isUsableName(n, job));
        Optional<ZoneId> zone = job.node("timeZone").isPresent()
                ? job.parsed("timeZone", JobBinder::zone)
                : Optional.of(DEFAULT_ZONE);
        // A bad zone must not hide a bad expression, so the expression is checked in UTC then.
        Optional<Schedule> schedule = job.requiredString("schedule")
                .flatMap(expression -> schedule(expression, zone.orElse(DEFAULT_ZONE), job))
                .filter(parsed -> zone.isPresent());
        Optional<String> type = job.requiredString("type");
        CatchUp catchUp = job.choice("catchUp", CATCH_UPS).orElse(CatchUp.LATEST);
        Optional<Duration> timeout = job.node("timeout").isPresent()
                ? job.parsed("timeout", JobBinder::positiveDuration)
                : Optional.of(JobSpec.DEFAULT_TIMEOUT);
        boolean enabled = job.bool("enabled").orElse(true);
        Scope scope = job.choice("scope", SCOPES).orElse(Scope.CLUSTER);
        Optional<Map<String, Object>> params = job.freeMapping("params");
        if (type.isPresent() && params.isPresent()) {
            checkType(job, type.get(), params.get());
        }
        if (name.isEmpty() || schedule.isEmpty() || type.isEmpty() || timeout.isEmpty() || params.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new JobSpec(name.get(), schedule.get(), type.get(), catchUp, timeout.get(), enabled, scope,
                params.get()));
    }

    private boolean isUsableName(String name, FieldReader job) {
        OptionalInt control = name.codePoints().filter(JobBinder::isLineOrControl).findFirst();
        if (control.isPresent()) {
            // The name itself is not echoed: printing it would do what the check prevents.
            errors.add(job.positionOf("name"), job.pathOf("name"), String.format("holds the control character U+%04X;"
                    + " a job name goes into log lines and the lease table, so it must be printable text",
                    control.getAsInt()));
            return false;
        }
        try {
            LeaseName.validate(JobSpec.LEASE_PREFIX + name);
        } catch (IllegalArgumentException e) {
            int bytes = name.getBytes(StandardCharsets.UTF_8).length;
            errors.add(job.positionOf("name"), job.pathOf("name"), "name is " + bytes + " bytes in UTF-8; at most "
                    + MAX_NAME_BYTES + " fit, because the lease name is \"" + JobSpec.LEASE_PREFIX
                    + "\" plus the job name in a " + LeaseName.MAX_BYTES + "-byte column");
            return false;
        }
        Position first = namesSeen.putIfAbsent(name, job.positionOf("name"));
        if (first != null) {
            errors.add(job.positionOf("name"), job.pathOf("name"),
                    "duplicate job name \"" + name + "\" (first used at line " + first.line() + ")");
            return false;
        }
        return true;
    }

    /**
     * A NUL makes every claim fail on SQLite and PostgreSQL; a line break would let a name forge
     * log lines on the console.
     */
    private static boolean isLineOrControl(int codePoint) {
        int type = Character.getType(codePoint);
        return type == Character.CONTROL || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }

    private Optional<Schedule> schedule(String expression, ZoneId zone, FieldReader job) {
        Schedule schedule;
        try {
            schedule = Schedule.parse(expression, zone);
            Schedule shared = schedules.get(schedule);
            if (shared != null) {
                return Optional.of(shared);
            }
        } catch (IllegalArgumentException e) {
            errors.add(job.positionOf("schedule"), job.pathOf("schedule"),
                    "invalid cron \"" + expression + "\": " + e.getMessage());
            return Optional.empty();
        }
        // Cron has no year field, so a schedule that matches no date within a few years (a leap
        // day falls in every 8) never matches any: a day the month never has, such as 31 February.
        Instant now = Instant.now();
        Optional<Instant> next = schedule.nextInstant(now);
        if (next.isEmpty() || next.get().isAfter(now.plus(NEVER_FIRES_HORIZON))) {
            errors.add(job.positionOf("schedule"), job.pathOf("schedule"), "invalid cron \"" + expression
                    + "\": it never fires: no date in the next 8 years matches it (a day the month does not have,"
                    + " such as 31 February?)");
            return Optional.empty();
        }
        schedules.put(schedule, schedule);
        return Optional.of(schedule);
    }

    private static Duration positiveDuration(String text) {
        Duration duration = DurationSyntax.parse(text);
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("must be positive, was \"" + text + "\"");
        }
        return duration;
    }

    private void checkType(FieldReader job, String type, Map<String, Object> params) {
        for (TypeProblem problem : types.check(type, params)) {
            String key = problem.param().map(param -> "params." + param).orElse("type");
            errors.add(typeProblemPosition(job, problem.param()), job.pathOf(key), problem.message());
        }
    }

    /** The param's key if it is written, else the params mapping, else the type. */
    private static Position typeProblemPosition(FieldReader job, Optional<String> param) {
        Optional<YamlNode> params = job.node("params");
        if (param.isEmpty() || params.isEmpty()) {
            return job.positionOf("type");
        }
        Optional<Position> key = params.get() instanceof YamlNode.Mapping mapping
                ? mapping.entry(param.get()).map(YamlNode.Entry::keyPosition)
                : Optional.empty();
        return key.orElse(params.get().position());
    }

    // Ordered as declared, so messages list the default first.
    private static <T> Map<String, T> byYamlName(T[] values, Function<T, String> yamlName) {
        Map<String, T> byName = new LinkedHashMap<>();
        for (T value : values) {
            byName.put(yamlName.apply(value), value);
        }
        return Collections.unmodifiableMap(byName);
    }

    private static ZoneId zone(String id) {
        try {
            return ZoneId.of(id.strip());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "unknown time zone \"" + id + "\": use a region ID such as Europe/Berlin or America/New_York, or UTC");
        }
    }
}
