package dev.leasecron.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a jobs file into a {@link JobsConfig}, or reports every mistake in it.
 *
 * <p>Steps: read the file as UTF-8; parse YAML keeping each token's position; interpolate
 * {@code ${VAR}} and {@code ${VAR:-default}} in every key and value from the given environment;
 * bind and validate every section, collecting all errors; ask the {@link JobTypeChecker} about each
 * job's type and params. Nothing here opens a database or a network connection.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ConfigLoader {
    /**
     * The most a jobs file may hold: 4 MiB. A file of thousands of jobs is a few hundred kilobytes;
     * the limit keeps a mistaken or hostile file (a log written over it, a device) from costing the
     * daemon its memory, and it is checked before the file is read whole.
     */
    public static final int MAX_FILE_BYTES = 4 * 1024 * 1024;

    private final Map<String, String> environment;
    private final JobTypeChecker types;

    /**
     * @param environment what {@code ${VAR}} reads (the process's is {@link System#getenv()}); also
     *     where the default {@code instance} comes from ({@code HOSTNAME}, else the host's name)
     * @param types says which job types exist; {@link JobTypeChecker#acceptAny()} when no plugins
     *     are loaded
     */
    public ConfigLoader(Map<String, String> environment, JobTypeChecker types) {
        this.environment = Map.copyOf(environment);
        this.types = Objects.requireNonNull(types, "types");
    }

    /**
     * Loads {@code file}; errors name it as given (so a relative path stays relative).
     *
     * @throws ConfigException listing every mistake, including a file that cannot be read
     */
    public JobsConfig load(Path file) throws ConfigException {
        return parse(file.toString(), read(file));
    }

    /**
     * What can be used of {@code file}, errors and all: for a reader such as {@code leasecron status},
     * which shows the jobs that are sound rather than nothing for one mistake. Never throws for a
     * mistake in the file; the errors are in {@link UsableConfig#errors()}.
     */
    public UsableConfig loadUsable(Path file) {
        byte[] bytes;
        try {
            bytes = read(file);
        } catch (ConfigException e) {
            return UsableConfig.nothing(e.errors());
        }
        String text;
        try {
            text = decode(file.toString(), bytes);
        } catch (ConfigException e) {
            return UsableConfig.nothing(e.errors());
        }
        ErrorCollector errors = new ErrorCollector(file.toString());
        Optional<YamlNode> root = new YamlTreeReader(text, new Interpolator(environment), errors).read();
        if (root.isEmpty()) {
            if (errors.isEmpty()) {
                errors.addWithoutPosition("the file is empty; it needs at least \"jobs:\" with a list of jobs");
            }
            return UsableConfig.nothing(errors.sorted());
        }
        ConfigBinder binder = new ConfigBinder(errors, types, this::defaultInstance,
                Optional.ofNullable(environment.get(JobsConfig.HTTP_PORT_VARIABLE)));
        Optional<JobsConfig> config = binder.bind(root.get());
        if (config.isPresent() && errors.isEmpty()) {
            JobsConfig sound = config.get();
            return new UsableConfig(Optional.of(sound.database()), Optional.of(sound.instance()), sound.jobs(), List.of(),
                    Optional.of(sound.history()));
        }
        return binder.usable(errors.sorted());
    }

    /**
     * The bytes of {@code file}, or the reason they cannot be read as a config error. At most
     * {@link #MAX_FILE_BYTES} + 1 bytes are read, so a larger file (or an endless one such as a
     * device) is refused without being held in memory.
     */
    static byte[] read(Path file) throws ConfigException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            if (bytes.length > MAX_FILE_BYTES) {
                throw single(file.toString(), "the file is larger than " + MAX_FILE_BYTES / (1024 * 1024) + " MiB ("
                        + MAX_FILE_BYTES + " bytes), the most a jobs file may hold");
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw single(file.toString(), "no such file");
        } catch (IOException e) {
            throw single(file.toString(), "cannot read the file: " + e.getMessage());
        }
    }

    /** Parses {@code bytes} as the contents of {@code fileName}, which must be UTF-8. */
    JobsConfig parse(String fileName, byte[] bytes) throws ConfigException {
        return parse(fileName, decode(fileName, bytes));
    }

    private static String decode(String fileName, byte[] bytes) throws ConfigException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw single(fileName, "not a text file in UTF-8");
        }
    }

    /**
     * Parses {@code text} as the contents of a file called {@code fileName}.
     *
     * @throws ConfigException listing every mistake
     */
    public JobsConfig parse(String fileName, String text) throws ConfigException {
        ErrorCollector errors = new ErrorCollector(fileName);
        Optional<YamlNode> root = new YamlTreeReader(text, new Interpolator(environment), errors).read();
        if (root.isEmpty() && errors.isEmpty()) {
            errors.addWithoutPosition("the file is empty; it needs at least \"jobs:\" with a list of jobs");
        }
        Optional<JobsConfig> config = root.flatMap(node -> new ConfigBinder(errors, types, this::defaultInstance,
                Optional.ofNullable(environment.get(JobsConfig.HTTP_PORT_VARIABLE))).bind(node));
        if (config.isEmpty() || !errors.isEmpty()) {
            throw errors.toException();
        }
        return config.get();
    }

    private String defaultInstance() {
        String fromEnvironment = environment.get("HOSTNAME");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            // A host without a resolvable name still runs jobs; a second daemon on it goes by localhost-2.
            return "localhost";
        }
    }

    private static ConfigException single(String file, String message) {
        return new ConfigException(List.of(new ConfigError(file, 0, 0, "", message)));
    }
}
