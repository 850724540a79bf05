package dev.leasecron.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The database the replicas share (the primary: leases live there), and the named extra databases
 * jobs may open transactions on.
 *
 * <p>A file without a {@code database:} section gets {@link #embeddedDefault()}: an SQLite file
 * {@code leasecron.db} in the working directory, through a single connection. It suits one replica;
 * replicas on different hosts need a shared server database.
 *
 * @param embedded whether this is the embedded default rather than a configured database
 * @param primary the database leases are held in
 * @param poolMaxSize the most connections open to the primary at once (1 for the embedded default)
 * @param instances extra databases by name, in file order; never contains {@value #PRIMARY}
 */
public record DatabaseSpec(boolean embedded, DataSourceSpec primary, int poolMaxSize, Map<String, DataSourceSpec> instances) {
    /** The name that means the primary database; no extra instance may take it. */
    public static final String PRIMARY = "primary";

    /** The JDBC URL of the embedded default, relative to the working directory. */
    public static final String EMBEDDED_URL = "jdbc:sqlite:leasecron.db";

    /** The pool size when {@code database.pool.maxSize} is not given. */
    public static final int DEFAULT_POOL_MAX_SIZE = 10;

    public DatabaseSpec {
        Objects.requireNonNull(primary, "primary");
        instances = Collections.unmodifiableMap(new LinkedHashMap<>(instances));
        if (instances.containsKey(PRIMARY)) {
            throw new IllegalArgumentException("the instance name \"" + PRIMARY + "\" is reserved for the primary database");
        }
        if (poolMaxSize < 1) {
            throw new IllegalArgumentException("poolMaxSize must be at least 1, was " + poolMaxSize);
        }
    }

    /** The embedded SQLite default used when a file has no {@code database:} section. */
    public static DatabaseSpec embeddedDefault() {
        return new DatabaseSpec(true, new DataSourceSpec(EMBEDDED_URL, Optional.empty(), Secret.none()), 1, Map.of());
    }
}
