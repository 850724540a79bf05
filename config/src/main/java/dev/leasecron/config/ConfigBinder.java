package dev.leasecron.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** Binds the top level of a jobs file, filling in defaults, and delegates sections to their binders. */
final class ConfigBinder {
    private static final List<String> KEYS = List.of("database", "instance", "http", "shutdownGrace", "jobs");
    private static final List<String> HTTP_KEYS = List.of("port");

    private final ErrorCollector errors;
    private final JobTypeChecker types;
    private final Supplier<String> defaultInstance;

    ConfigBinder(ErrorCollector errors, JobTypeChecker types, Supplier<String> defaultInstance) {
        this.errors = errors;
        this.types = types;
        this.defaultInstance = defaultInstance;
    }

    /** The config, or empty when anything is wrong (every error recorded). */
    Optional<JobsConfig> bind(YamlNode root) {
        if (!(root instanceof YamlNode.Mapping)) {
            errors.add(root.position(), "", "expected a mapping with a \"jobs:\" list at the top, found " + root.kind());
            return Optional.empty();
        }
        FieldReader top = FieldReader.of(root, "", errors, KEYS).orElseThrow();
        Optional<DatabaseSpec> database = top.node("database").isPresent()
                ? new DatabaseBinder(errors).bind(top.node("database").get())
                : Optional.of(DatabaseSpec.embeddedDefault());
        Optional<String> instance = top.node("instance").isPresent()
                ? top.requiredString("instance")
                : Optional.of(defaultInstance.get());
        Optional<Integer> httpPort = top.node("http").isPresent()
                ? top.mapping("http", HTTP_KEYS).flatMap(http -> http.node("port").isPresent()
                        ? http.integer("port", 1, 65535)
                        : Optional.of(JobsConfig.DEFAULT_HTTP_PORT))
                : Optional.of(JobsConfig.DEFAULT_HTTP_PORT);
        Optional<Duration> shutdownGrace = top.node("shutdownGrace").isPresent()
                ? top.parsed("shutdownGrace", ConfigBinder::notNegativeDuration)
                : Optional.of(JobsConfig.DEFAULT_SHUTDOWN_GRACE);
        Optional<List<JobSpec>> jobs = jobs(top);
        if (database.isPresent() && !database.get().embedded()) {
            List<YamlNode> jobNodes = top.node("jobs").filter(YamlNode.Sequence.class::isInstance)
                    .map(node -> ((YamlNode.Sequence) node).items()).orElse(List.of());
            PrimaryDatabaseUrl.check(top.node("database").orElseThrow(), database.get().primary().url(),
                    jobs.orElse(List.of()), jobNodes, errors);
        }
        if (!errors.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new JobsConfig(database.orElseThrow(), instance.orElseThrow(), httpPort.orElseThrow(),
                shutdownGrace.orElseThrow(), jobs.orElseThrow()));
    }

    private Optional<List<JobSpec>> jobs(FieldReader top) {
        if (top.node("jobs").isEmpty()) {
            errors.add(top.position(), "", "missing required key \"jobs\" (a list of jobs; write \"jobs: []\" for none)");
            return Optional.empty();
        }
        Optional<List<YamlNode>> items = top.list("jobs");
        if (items.isEmpty()) {
            return Optional.empty();
        }
        JobBinder binder = new JobBinder(errors, types);
        List<JobSpec> jobs = new ArrayList<>();
        for (int i = 0; i < items.get().size(); i++) {
            binder.bind(items.get().get(i), "jobs[" + i + "]").ifPresent(jobs::add);
        }
        return jobs.size() == items.get().size() ? Optional.of(jobs) : Optional.empty();
    }

    private static Duration notNegativeDuration(String text) {
        Duration duration = DurationSyntax.parse(text);
        if (duration.isNegative()) {
            throw new IllegalArgumentException("must not be negative, was \"" + text + "\"");
        }
        return duration;
    }
}
