package dev.leasecron.lease.testing;

import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/** A {@link DataSource} that counts the connections borrowed through it: one per statement or transaction. */
public final class BorrowCounting {
    private BorrowCounting() {}

    /** {@code target}, adding one to {@code borrowed} for every connection it hands out. */
    public static DataSource wrap(DataSource target, AtomicLong borrowed) {
        return BeforeConnection.wrap(target, borrowed::incrementAndGet);
    }
}
