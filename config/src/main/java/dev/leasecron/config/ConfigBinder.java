package dev.leasecron.config;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/** Binds the top level of a jobs file, filling in defaults, and delegates sections to their binders. */
final class ConfigBinder {
    private static final List<String> KEYS = List.of("database", "instance", "http", "shutdownGrace", "history", "jobs");
    private static final List<String> HTTP_KEYS = List.of("address", "port", "adminToken");
    private static final Pattern BIND_ADDRESS = Pattern.compile("[A-Za-z0-9.:_%-]{1,253}");
    private static final int MIN_PORT = 1;
    private static final int MAX_PORT = 65535;

    private final ErrorCollector errors;
    private final JobTypeChecker types;
    private final Supplier<String> defaultInstance;
    private final Optional<String> httpPortVariable;
    /** The parts bound without error so far, for readers that show what they can of a faulty file. */
    private Optional<DatabaseSpec> soundDatabase = Optional.empty();
    private Optional<String> soundInstance = Optional.empty();
    private Optional<HistorySpec> soundHistory = Optional.empty();
    private final List<JobSpec> soundJobs = new ArrayList<>();

    /**
     * @param httpPortVariable the value of {@link JobsConfig#HTTP_PORT_VARIABLE}, if it is set
     */
    ConfigBinder(ErrorCollector errors, JobTypeChecker types, Supplier<String> defaultInstance,
            Optional<String> httpPortVariable) {
        this.errors = errors;
        this.types = types;
        this.defaultInstance = defaultInstance;
        this.httpPortVariable = httpPortVariable.filter(value -> !value.isBlank());
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
                ? top.requiredString("instance").filter(name -> {
                    int bytes = name.getBytes(StandardCharsets.UTF_8).length;
                    if (bytes > JobsConfig.MAX_INSTANCE_BYTES) {
                        errors.add(top.positionOf("instance"), "instance", "at most " + JobsConfig.MAX_INSTANCE_BYTES
                                + " UTF-8 bytes (the width of the lease table's instance column), has " + bytes);
                        return false;
                    }
                    return true;
                })
                : Optional.of(defaultInstance.get());
        Optional<FieldReader> http = top.node("http").isPresent() ? top.mapping("http", HTTP_KEYS) : Optional.empty();
        Optional<Optional<String>> httpAddress = http.isPresent() && http.get().node("address").isPresent()
                ? http.get().parsed("address", ConfigBinder::bindAddress).map(Optional::of)
                : Optional.of(Optional.empty());
        Optional<Integer> httpPort = httpPort(http);
        Optional<Secret> adminToken = http.isPresent() ? http.get().secret("adminToken").filter(token -> usableToken(http.get(), token))
                : Optional.of(Secret.none());
        Optional<Duration> shutdownGrace = top.node("shutdownGrace").isPresent()
                ? top.parsed("shutdownGrace", ConfigBinder::notNegativeDuration)
                : Optional.of(JobsConfig.DEFAULT_SHUTDOWN_GRACE);
        Optional<HistorySpec> history = HistoryBinder.bind(top);
        Optional<List<JobSpec>> jobs = jobs(top);
        soundDatabase = database;
        soundInstance = instance;
        soundHistory = history;
        if (database.isPresent() && !database.get().embedded()) {
            List<YamlNode> jobNodes = top.node("jobs").filter(YamlNode.Sequence.class::isInstance)
                    .map(node -> ((YamlNode.Sequence) node).items()).orElse(List.of());
            PrimaryDatabaseUrl.check(top.node("database").orElseThrow(), database.get().primary().url(),
                    jobs.orElse(List.of()), jobNodes, errors);
        }
        if (!errors.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new JobsConfig(database.orElseThrow(), instance.orElseThrow(), httpAddress.orElseThrow(),
                httpPort.orElseThrow(), adminToken.orElseThrow(), shutdownGrace.orElseThrow(), history.orElseThrow(), jobs.orElseThrow()));
    }

    /**
     * What {@link #bind} could use of the file: the database and instance when their sections bound
     * without error, and each job that did. After a {@link #bind} that found errors.
     */
    UsableConfig usable(List<ConfigError> found) {
        return new UsableConfig(soundDatabase, soundInstance, soundJobs, found, soundHistory);
    }

    /** {@code LEASECRON_HTTP_PORT} when set, else {@code http.port}, else the default; both are checked. */
    private Optional<Integer> httpPort(Optional<FieldReader> http) {
        Optional<Integer> inFile = http.isPresent() && http.get().node("port").isPresent()
                ? http.get().integer("port", MIN_PORT, MAX_PORT)
                : Optional.of(JobsConfig.DEFAULT_HTTP_PORT);
        if (httpPortVariable.isEmpty()) {
            return inFile;
        }
        String text = httpPortVariable.get().strip();
        try {
            int port = Integer.parseInt(text);
            if (port >= MIN_PORT && port <= MAX_PORT) {
                return inFile.map(ignored -> port);
            }
        } catch (NumberFormatException e) {
            // Reported below, as any other unusable value.
        }
        errors.addWithoutPosition("environment variable " + JobsConfig.HTTP_PORT_VARIABLE + " must be a port between "
                + MIN_PORT + " and " + MAX_PORT + ", was \"" + text + "\"");
        return Optional.empty();
    }

    /**
     * Whether the admin token can be sent and is hard to guess: a bearer token travels in an HTTP header,
     * so it must be visible ASCII (no spaces), and it must be long enough that guessing it over the
     * network is hopeless. Errors name the rule, never the value or its length.
     */
    private boolean usableToken(FieldReader http, Secret token) {
        String value = token.reveal();
        if (token.isEmpty()) {
            return true;
        }
        if (!value.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
            errors.add(http.positionOf("adminToken"), "http.adminToken",
                    "must be visible ASCII without spaces: it is sent in an HTTP Authorization header");
            return false;
        }
        if (value.length() < JobsConfig.MIN_ADMIN_TOKEN_CHARS) {
            errors.add(http.positionOf("adminToken"), "http.adminToken", "must be at least "
                    + JobsConfig.MIN_ADMIN_TOKEN_CHARS + " characters; make one with: openssl rand -hex 32");
            return false;
        }
        return true;
    }

    /** An IP address or a host name, checked for its form only: binding it happens at start. */
    private static String bindAddress(String text) {
        String address = text.strip();
        if (!BIND_ADDRESS.matcher(address).matches()) {
            throw new IllegalArgumentException("expected an IP address such as 127.0.0.1 or ::1, or a host name,"
                    + " was \"" + address + "\"");
        }
        return address;
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
        soundJobs.addAll(jobs);
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
