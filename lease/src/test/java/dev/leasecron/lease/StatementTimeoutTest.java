package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestDatabases;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every statement of the lease module carries the attempt timeout (half the local deadline) as its
 * query timeout on the server databases: a statement stalled on a row lock past it fails instead of
 * holding its caller until the database gives up (never, by PostgreSQL's default; after 50 s, by
 * MariaDB's). SQLite has no query timeout: its URL's busy timeout bounds the wait for its file lock.
 */
class StatementTimeoutTest {
    /** A 4 s local deadline: each statement may run 2 s, more than the 1 s that scaled-down timings round up to. */
    private static final LeaseTimings TIMINGS = new LeaseTimings(
            Duration.ofMillis(10_000), Duration.ofMillis(500), Duration.ofMillis(4000), Duration.ofMillis(500));
    private static final Duration TIMEOUT = TIMINGS.attemptTimeout();

    static Stream<TestDatabase> servers() {
        return TestDatabases.all().filter(db -> !db.isSqlite());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aStatementStalledPastTheTimeoutFails(TestDatabase db) throws Exception {
        Leases leases = db.leases(TIMINGS);
        String name = uniqueName("stalled");
        Handle h = leases.claim(name).orElseThrow();

        assertFailsAtTheTimeout(db, name, h::renew);
        h.renew(); // the stall over, the same statement answers: the lease is still held
        assertFailsAtTheTimeout(db, name, () -> {
            BatchResult<Handle, Boolean> renewed = leases.batches().renewAll(List.of(h));
            if (renewed.failed().containsKey(h)) {
                throw renewed.failed().get(h);
            }
        });
        assertFailsAtTheTimeout(db, name, h::release);
        h.release();
    }

    /** Runs {@code statement} while another transaction holds {@code name}'s row: it fails at the timeout. */
    private static void assertFailsAtTheTimeout(TestDatabase db, String name, Executable statement) throws Exception {
        try (AutoCloseable stall = db.stall(name)) {
            long started = System.nanoTime();
            LeaseDatabaseException failure = assertTimeoutPreemptively(TIMEOUT.plusSeconds(10),
                    () -> assertThrows(LeaseDatabaseException.class, statement),
                    "a stalled statement is cancelled at the query timeout");
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertTrue(took.compareTo(TIMEOUT.minusMillis(200)) >= 0, "stalled until the timeout, not before: " + took);
            assertTrue(took.compareTo(TIMEOUT.plusSeconds(4)) < 0, "cancelled at the timeout: " + took + ", " + failure);
        }
    }
}
