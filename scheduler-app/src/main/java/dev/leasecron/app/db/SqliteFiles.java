package dev.leasecron.app.db;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The file of an SQLite URL ({@code jdbc:sqlite:FILE[?params]}). A relative FILE written in a jobs
 * file means a path relative to that file's folder, for {@code run} and {@code status} alike:
 * resolved against the working directory instead, {@code status} run from another folder would
 * read (and used to create) another, empty database. The embedded default ({@code leasecron.db}
 * when the file has no {@code database:} section) is not written in the file and stays in the
 * working directory, where the container image keeps its data volume.
 */
public final class SqliteFiles {
    private static final String PREFIX = "jdbc:sqlite:";

    private SqliteFiles() {}

    /**
     * The file {@code url} names; empty for another database, for an in-memory database
     * ({@code :memory:}, or no name) and for the URI form ({@code file:...}), left to SQLite.
     */
    public static Optional<Path> file(String url) {
        if (!url.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String name = name(url);
        if (name.isEmpty() || name.startsWith(":") || name.startsWith("file:")) {
            return Optional.empty();
        }
        return Optional.of(Path.of(name));
    }

    /** {@code url} with a relative file made absolute against {@code folder}; any other URL as it is. */
    public static String resolve(String url, Path folder) {
        Optional<Path> file = file(url);
        if (file.isEmpty() || file.get().isAbsolute()) {
            return url;
        }
        String name = name(url);
        return PREFIX + folder.toAbsolutePath().resolve(file.get()).normalize() + url.substring(PREFIX.length() + name.length());
    }

    private static String name(String url) {
        String rest = url.substring(PREFIX.length());
        int query = rest.indexOf('?');
        return query < 0 ? rest : rest.substring(0, query);
    }
}
