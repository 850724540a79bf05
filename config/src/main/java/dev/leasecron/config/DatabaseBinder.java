package dev.leasecron.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Binds the {@code database:} section: the primary, its pool, and the named extra instances. */
final class DatabaseBinder {
    static final List<String> KEYS = List.of("url", "username", "password", "pool", "instances");
    private static final List<String> POOL_KEYS = List.of("maxSize");
    private static final List<String> INSTANCE_KEYS = List.of("url", "username", "password");
    private static final int MAX_POOL_SIZE = 1000;

    private final ErrorCollector errors;

    DatabaseBinder(ErrorCollector errors) {
        this.errors = errors;
    }

    /** The database at {@code node}, or empty when it has errors (all of them recorded). */
    Optional<DatabaseSpec> bind(YamlNode node) {
        Optional<FieldReader> found = FieldReader.of(node, "database", errors, KEYS);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        FieldReader database = found.get();
        Optional<DataSourceSpec> primary = dataSource(database);
        Optional<Integer> poolMaxSize = database.node("pool").isPresent()
                ? database.mapping("pool", POOL_KEYS).flatMap(pool -> pool.node("maxSize").isPresent()
                        ? pool.integer("maxSize", 1, MAX_POOL_SIZE)
                        : Optional.of(DatabaseSpec.DEFAULT_POOL_MAX_SIZE))
                : Optional.of(DatabaseSpec.DEFAULT_POOL_MAX_SIZE);
        Optional<Map<String, DataSourceSpec>> instances = instances(database);
        if (primary.isEmpty() || poolMaxSize.isEmpty() || instances.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new DatabaseSpec(false, primary.get(), poolMaxSize.get(), instances.get()));
    }

    private Optional<Map<String, DataSourceSpec>> instances(FieldReader database) {
        Optional<YamlNode> node = database.node("instances");
        if (node.isEmpty()) {
            return Optional.of(Map.of());
        }
        if (!(node.get() instanceof YamlNode.Mapping mapping)) {
            errors.add(node.get().position(), database.pathOf("instances"),
                    "expected a mapping of instance name to url/username/password, found " + node.get().kind());
            return Optional.empty();
        }
        Map<String, DataSourceSpec> instances = new LinkedHashMap<>();
        boolean valid = true;
        for (YamlNode.Entry entry : mapping.entries()) {
            String path = database.pathOf("instances") + "." + entry.key();
            if (entry.key().equals(DatabaseSpec.PRIMARY)) {
                errors.add(entry.keyPosition(), path, "the name \"" + DatabaseSpec.PRIMARY
                        + "\" is reserved for the main database (url/username/password under database:)");
                valid = false;
                continue;
            }
            Optional<DataSourceSpec> instance = FieldReader.of(entry.value(), path, errors, INSTANCE_KEYS)
                    .flatMap(fields -> dataSource(fields).filter(spec ->
                            PrimaryDatabaseUrl.checkExtra(fields.positionOf("url"), fields.pathOf("url"), spec.url(), errors)));
            instance.ifPresent(spec -> instances.put(entry.key(), spec));
            valid &= instance.isPresent();
        }
        return valid ? Optional.of(instances) : Optional.empty();
    }

    private Optional<DataSourceSpec> dataSource(FieldReader fields) {
        Optional<String> url = fields.requiredString("url").filter(value -> {
            if (!value.startsWith("jdbc:")) {
                errors.add(fields.positionOf("url"), fields.pathOf("url"), "expected a JDBC URL such as"
                        + " jdbc:postgresql://host:5432/db, jdbc:mariadb://host:3306/db or jdbc:sqlite:file.db");
                return false;
            }
            return true;
        });
        boolean hasUsername = fields.node("username").isPresent();
        Optional<String> username = fields.string("username");
        boolean hasPassword = fields.node("password").isPresent();
        Optional<String> password = fields.string("password");
        if (url.isEmpty() || hasUsername && username.isEmpty() || hasPassword && password.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new DataSourceSpec(url.get(), username, Secret.of(password.orElse(""))));
    }
}
