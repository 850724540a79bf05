package dev.leasecron.app.db;

import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;

/**
 * Tells a failure to connect that waiting cannot cure from one that it can. The server said no to
 * these credentials or has no such database: trying again gives the same answer until someone edits
 * the jobs file, the secret or the server. A refused connection, an unknown host, a timeout, a server
 * starting up or out of connections: the database may come up later (in Kubernetes it often starts
 * after its clients), so those are waited out.
 */
public final class ConnectionFailures {
    /** SQLSTATE 28xxx, invalid authorization: a wrong password, an unknown user, no pg_hba.conf entry. */
    private static final String AUTHORIZATION_CLASS = "28";
    /** PostgreSQL's invalid_catalog_name: the database named in the URL does not exist. */
    private static final String NO_SUCH_DATABASE = "3D000";
    /** MySQL and MariaDB put these under the generic SQLSTATE 42000: no access to the database, unknown database. */
    private static final String MYSQL_SYNTAX_OR_ACCESS = "42000";
    private static final Set<Integer> MYSQL_DATABASE_REFUSED = Set.of(1044, 1049);

    private ConnectionFailures() {}

    /**
     * The driver's words when {@code failure}, or an exception it wraps, is a refusal that retrying
     * cannot fix; empty for anything else.
     */
    public static Optional<String> permanent(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && permanent(sql)) {
                return Optional.of(String.valueOf(sql.getMessage()));
            }
        }
        return Optional.empty();
    }

    private static boolean permanent(SQLException e) {
        String state = e.getSQLState();
        if (state == null) {
            return false;
        }
        // A pool's own timeout copies its cause's state: the driver's exception, further down, says it in its words.
        if (e.getCause() instanceof SQLException cause && state.equals(cause.getSQLState())) {
            return false;
        }
        return state.startsWith(AUTHORIZATION_CLASS) || state.equals(NO_SUCH_DATABASE)
                || state.equals(MYSQL_SYNTAX_OR_ACCESS) && MYSQL_DATABASE_REFUSED.contains(e.getErrorCode());
    }
}
