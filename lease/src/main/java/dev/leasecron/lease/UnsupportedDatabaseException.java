package dev.leasecron.lease;

/**
 * The primary database cannot carry leases. Leases need row-level updates and unique keys, which
 * PostgreSQL, MySQL/MariaDB and SQLite have and ClickHouse does not. A deployment that meets this
 * fails at start-up instead of running every replica as if it were alone.
 */
public class UnsupportedDatabaseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String productName;

    public UnsupportedDatabaseException(String productName) {
        super("leases need a PostgreSQL, MySQL/MariaDB or SQLite primary database, not "
                + (productName == null || productName.isBlank() ? "an unknown database" : productName));
        this.productName = productName == null || productName.isBlank() ? "unknown" : productName;
    }

    /** The database as its JDBC driver names it, e.g. {@code ClickHouse}; {@code unknown} when it names none. */
    public String productName() {
        return productName;
    }
}
