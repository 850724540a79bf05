package dev.leasecron.app.scheduler;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.LeaseScope;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.testing.TestDatabase;
import dev.leasecron.lease.testing.TestTimings;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * At start every job decides where it begins, each with a read: a few at a time, so the pool keeps
 * connections for the renewals and finishes of the rounds already running.
 */
class CatchUpStartTest {
    private static final int JOBS = 60;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void jobsStartingTogetherHoldAFewConnectionsAtATime(TestDatabase db) {
        AtomicInteger open = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Leases leases = db.leases(TestTimings.FAST, counting(db.pool(10), open, most));
        CatchUp catchUp = new CatchUp(leases, DueClock.processClock(leases), Duration.ofHours(1),
                new RoundEvents(RoundListener.NONE));
        String prefix = TestDatabase.uniqueName("start");
        List<JobState> decided = new CopyOnWriteArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            RecordingJob recording = new RecordingJob();
            String name = prefix + "-" + i;
            catchUp.start(new JobState(new ScheduledJob(name, "cron:" + name, new EveryPeriod(Duration.ofSeconds(1)),
                    recording.type(), recording, Map.of(), Duration.ofMinutes(1), false, true), LeaseScope.root(), i),
                    decided::add);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> decided.size() == JOBS);
        assertTrue(most.get() <= CatchUp.CONCURRENT_DECISIONS,
                "connections held at once by the jobs deciding: " + most.get());
    }

    /** {@code target}, counting the connections open at once, each held a little longer than its statement. */
    private static DataSource counting(DataSource target, AtomicInteger open, AtomicInteger most) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object result = invoke(target, method, args);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    most.accumulateAndGet(open.incrementAndGet(), Math::max);
                    Connection connection = (Connection) result;
                    return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                            (p, m, a) -> {
                                if (m.getName().equals("close")) {
                                    Thread.sleep(20); // as on a busy database: requests pile up behind it
                                    open.decrementAndGet();
                                }
                                return invoke(connection, m, a);
                            });
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
