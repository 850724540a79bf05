package dev.leasecron.lease;

import static dev.leasecron.lease.testing.TestDatabase.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.leasecron.lease.testing.BeforeConnection;
import dev.leasecron.lease.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The batch forms against the single-row statements, property style: random states are built twice,
 * name for name, in two sets of names; one set goes through a batch call, the other through the
 * single-row calls one by one, and each name must come out the same (the outcome and its row
 * afterwards). The seed is printed; {@code -Dleasecron.seed=N} replays a run.
 */
class BatchEquivalenceTest {
    private static final long SEED = Long.getLong("leasecron.seed", System.nanoTime());
    private static final int TRIALS = 3;
    private static final Instant BASE = Instant.parse("2026-01-01T00:00:00Z");
    /**
     * Leases that outlast a trial's setup on a loaded machine: a lease that expired on its own while
     * the other set was being prepared would read as a difference.
     */
    private static final LeaseTimings LONG = new LeaseTimings(
            Duration.ofMinutes(5), Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(5));

    static {
        System.out.println("BatchEquivalenceTest seed " + SEED + " (replay with -Dleasecron.seed=" + SEED + ")");
    }

    /** How a name stands before the claim of an instant. */
    enum Before {
        NEVER_CLAIMED, HELD, FINISHED, CUT_SHORT, RERUN_CUT_SHORT, RERUN_HELD, SAME_INSTANT_ON_RECORD,
        LATER_INSTANT_ON_RECORD, EXPIRED_UNFINISHED, PLAIN_HELD, PLAIN_RELEASED
    }

    /** How a held handle stands before it is renewed, finished or released. */
    enum HandleState { HELD, EXPIRED, RELEASED_BY_STRANGER, TAKEN_FOR_A_LATER_INSTANT, TAKEN_FOR_A_RERUN, KNOWN_LOST }

    /** Something that happens to a name while a batch is between its read and its write. */
    enum Meanwhile { NOTHING, STRANGER_CLAIMS, STALE_HOLDER_FINISHES }

    private record Universe(Leases leases, Leases stranger, Hook hook, DataSource pool, List<String> names,
            Map<String, Handle> setup) {

        /** Sets {@code name}'s expiry behind every holder's back: 0 as a release, 1 as an expiry. */
        void setExpiry(String name, long expiresAtMs) throws SQLException {
            try (Connection c = pool.getConnection();
                    PreparedStatement s = c.prepareStatement("UPDATE gst_leases SET expires_at_ms = ? WHERE name = ?")) {
                s.setLong(1, expiresAtMs);
                s.setString(2, name);
                assertEquals(1, s.executeUpdate());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void claimSlotsMatchesClaimSlotOneByOne(TestDatabase db) throws Exception {
        Random random = new Random(SEED ^ db.kind().hashCode());
        for (int trial = 0; trial < TRIALS; trial++) {
            Instant slot = BASE.plusSeconds(3600L * trial);
            int n = 20 + random.nextInt(40);
            List<Before> states = new ArrayList<>();
            List<Meanwhile> meanwhile = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                states.add(pick(random, Before.values()));
                meanwhile.add(random.nextInt(4) == 0 ? pick(random, Meanwhile.values()) : Meanwhile.NOTHING);
            }
            Universe batch = universe(db, n, "batch");
            Universe single = universe(db, n, "single");
            for (int i = 0; i < n; i++) {
                prepare(batch, i, states.get(i), slot);
                prepare(single, i, states.get(i), slot);
            }
            Map<String, String> holdersBefore = holders(batch);
            Map<String, String> singleHoldersBefore = holders(single);

            // What happens meanwhile happens after the read that decides each name, for either set:
            // the batch's one read, or each single claim's own. On PostgreSQL the batch reads and
            // writes in one statement whose read locks the rows, so nothing can come between them:
            // there it happens before either set's claim.
            int at = db.kind().equals("postgres") ? 1 : 2;
            batch.hook().arm(() -> interfere(batch, meanwhile, slot, 0, n), at);
            BatchResult<String, Optional<Handle>> result = batch.leases().slots().claimSlots(slot, batch.names());
            batch.hook().runIfArmed();
            assertTrue(result.complete(), "every statement answered");
            List<Optional<Handle>> oneByOne = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int only = i;
                single.hook().arm(() -> interfere(single, meanwhile, slot, only, only + 1), at);
                oneByOne.add(single.leases().slots().claimSlot(single.names().get(i), slot));
                single.hook().runIfArmed();
            }

            for (int i = 0; i < n; i++) {
                String what = "seed " + SEED + ", trial " + trial + ", " + db + ": name " + i + " " + states.get(i)
                        + " meanwhile " + meanwhile.get(i);
                Optional<Handle> b = result.get(batch.names().get(i));
                Optional<Handle> s = oneByOne.get(i);
                assertEquals(describe(s), describe(b), what);
                assertEquals(rowOf(single, i, singleHoldersBefore, s), rowOf(batch, i, holdersBefore, b), what + ": row afterwards");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void renewAllMatchesRenewOneByOne(TestDatabase db) throws Exception {
        compareHandles(db, "renew", (leases, handles) -> leases.batches().renewAll(handles).answered(), h -> {
            try {
                h.renew();
                return true;
            } catch (LeaseLostException e) {
                return false;
            }
        }, null);
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void releaseAllMatchesReleaseOneByOne(TestDatabase db) throws Exception {
        compareHandles(db, "release", (leases, handles) -> leases.batches().releaseAll(handles).answered(), h -> {
            try {
                h.release();
                return true;
            } catch (LeaseLostException e) {
                return false;
            }
        }, null);
    }

    @ParameterizedTest
    @MethodSource("dev.leasecron.lease.testing.TestDatabases#all")
    void finishAllMatchesFinishOneByOne(TestDatabase db) throws Exception {
        Map<Handle, Instant> passed = new HashMap<>();
        compareHandles(db, "finish", (leases, handles) -> {
            Map<Handle, Instant> given = new LinkedHashMap<>();
            handles.forEach(h -> given.put(h, passed.get(h)));
            return leases.batches().finishAll(given).answered();
        }, h -> {
            try {
                h.finish(passed.get(h));
                return true;
            } catch (LeaseLostException e) {
                return false;
            }
        }, passed);
    }

    /**
     * Claims a handle per name in each universe, brings each to a random state, runs {@code batch} on
     * one universe's handles and {@code single} on the other's, and compares name for name.
     *
     * @param passed when finishing: filled with a random last instant per handle, the same for the
     *     two handles of a name
     */
    private static void compareHandles(TestDatabase db, String op,
            BiFunction<Leases, List<Handle>, Map<Handle, Boolean>> batch,
            Function<Handle, Boolean> single, Map<Handle, Instant> passed) throws Exception {
        Random random = new Random(SEED ^ db.kind().hashCode() ^ op.hashCode());
        for (int trial = 0; trial < TRIALS; trial++) {
            Instant slot = BASE.plusSeconds(3600L * trial);
            int n = 20 + random.nextInt(40);
            Universe b = universe(db, n, "batch-" + op);
            Universe s = universe(db, n, "single-" + op);
            List<HandleState> states = new ArrayList<>();
            Instant dbNow = b.leases().readDatabaseClock();
            List<Handle> bh = new ArrayList<>();
            List<Handle> sh = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                HandleState state = pick(random, HandleState.values());
                states.add(state);
                bh.add(held(b, i, state, slot));
                sh.add(held(s, i, state, slot));
                if (passed != null) {
                    Instant last = switch (random.nextInt(4)) {
                        case 0 -> slot;
                        case 1 -> slot.plusSeconds(60); // an overrun instant the database clock has reached
                        case 2 -> dbNow.plusSeconds(3600); // one it has not
                        default -> slot.minusSeconds(60);
                    };
                    passed.put(bh.get(i), last);
                    passed.put(sh.get(i), last);
                }
            }
            Map<String, String> bBefore = holders(b);
            Map<String, String> sBefore = holders(s);

            Map<Handle, Boolean> batchResult = batch.apply(b.leases(), bh);
            List<Boolean> oneByOne = sh.stream().map(single).toList();

            for (int i = 0; i < n; i++) {
                String what = "seed " + SEED + ", trial " + trial + ", " + db + ", " + op + ": name " + i + " " + states.get(i);
                assertEquals(oneByOne.get(i), batchResult.get(bh.get(i)), what);
                assertEquals(rowOf(s, i, sBefore, Optional.of(sh.get(i))), rowOf(b, i, bBefore, Optional.of(bh.get(i))),
                        what + ": row afterwards");
            }
        }
    }

    private static Universe universe(TestDatabase db, int n, String prefix) {
        DataSource pool = db.pool(4);
        Hook hook = new Hook(pool);
        Leases leases = db.leases(LONG, hook.dataSource());
        // The hook counts the statements on the pool to interfere between a claim's read and its write;
        // the history's rows go out on a thread of their own, at any time, and would move the count.
        leases.keepHistory(false);
        Leases stranger = db.leases(LONG);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(uniqueName(prefix));
        }
        return new Universe(leases, stranger, hook, pool, names, new HashMap<>());
    }

    /** Brings name {@code i} of {@code u} to {@code state} through the single-row calls of a stranger. */
    private static void prepare(Universe u, int i, Before state, Instant slot) throws SQLException {
        String name = u.names().get(i);
        Leases other = u.stranger();
        Instant earlier = slot.minusSeconds(60);
        switch (state) {
            case NEVER_CLAIMED -> { }
            case HELD -> u.setup().put(name, other.slots().claimSlot(name, earlier).orElseThrow());
            case FINISHED -> other.slots().claimSlot(name, earlier).orElseThrow().finish(earlier);
            case CUT_SHORT -> other.slots().claimSlot(name, earlier).orElseThrow().release();
            case RERUN_CUT_SHORT -> {
                other.slots().claimSlot(name, earlier).orElseThrow().release();
                other.slots().claimRerun(other.slots().unfinishedSlots(List.of(name)).getFirst()).orElseThrow().release();
            }
            case RERUN_HELD -> {
                other.slots().claimSlot(name, earlier).orElseThrow().release();
                u.setup().put(name, other.slots().claimRerun(other.slots().unfinishedSlots(List.of(name)).getFirst()).orElseThrow());
            }
            case SAME_INSTANT_ON_RECORD -> other.slots().claimSlot(name, slot).orElseThrow().finish(slot);
            case LATER_INSTANT_ON_RECORD -> other.slots().claimSlot(name, earlier).orElseThrow().finish(slot.plusSeconds(60));
            case EXPIRED_UNFINISHED -> {
                u.setup().put(name, other.slots().claimSlot(name, earlier).orElseThrow());
                u.setExpiry(name, 1);
            }
            case PLAIN_HELD -> other.claim(name).orElseThrow();
            case PLAIN_RELEASED -> other.claim(name).orElseThrow().release();
        }
    }

    /** What happens to names {@code from} to {@code to} of {@code u} between a read and its write. */
    private static void interfere(Universe u, List<Meanwhile> meanwhile, Instant slot, int from, int to) {
        for (int i = from; i < to; i++) {
            String name = u.names().get(i);
            switch (meanwhile.get(i)) {
                case NOTHING -> { }
                case STRANGER_CLAIMS -> u.stranger().slots().claimSlot(name, slot);
                case STALE_HOLDER_FINISHES -> {
                    Handle stale = u.setup().get(name);
                    if (stale != null && stale.slot().isPresent()) {
                        try {
                            stale.finish(stale.slot().get());
                        } catch (LeaseLostException e) {
                            // The name had changed hands: the end is recorded without it, or not at all.
                        }
                    }
                }
            }
        }
    }

    /** Claims name {@code i} of {@code u} for {@code slot} and brings the handle to {@code state}. */
    private static Handle held(Universe u, int i, HandleState state, Instant slot) throws SQLException {
        String name = u.names().get(i);
        Handle h = u.leases().slots().claimSlot(name, slot).orElseThrow();
        switch (state) {
            case HELD -> { }
            case EXPIRED -> u.setExpiry(name, 1);
            case RELEASED_BY_STRANGER -> u.setExpiry(name, 0);
            case TAKEN_FOR_A_LATER_INSTANT -> {
                u.setExpiry(name, 0);
                u.stranger().slots().claimSlot(name, slot.plusSeconds(60)).orElseThrow();
            }
            case TAKEN_FOR_A_RERUN -> {
                u.setExpiry(name, 0);
                u.stranger().slots().claimRerun(u.stranger().slots().unfinishedSlots(List.of(name)).getFirst()).orElseThrow();
            }
            case KNOWN_LOST -> {
                u.setExpiry(name, 0);
                u.stranger().slots().claimSlot(name, slot.plusSeconds(60)).orElseThrow();
                h.markLost(new LeaseLostException("known lost (test)"));
            }
        }
        return h;
    }

    private static Map<String, String> holders(Universe u) {
        Map<String, String> holders = new HashMap<>();
        u.leases().views().rows(u.names()).forEach(r -> holders.put(r.name(), r.holder()));
        return holders;
    }

    /** A handle as far as the two universes can agree on it: tokens and names differ, the rest must not. */
    private static String describe(Optional<Handle> h) {
        return h.map(x -> "claimed term " + x.term() + " slot " + x.slot().orElse(null) + " rerun " + x.rerun()
                + " superseded " + x.superseded().map(u -> u.slot() + (u.rerun() ? " (rerun)" : "")).orElse("none"))
                .orElse("refused");
    }

    /** Name {@code i}'s row, its holder told relative to the handle and to the holder before. */
    private static String rowOf(Universe u, int i, Map<String, String> holdersBefore, Optional<Handle> h) {
        String name = u.names().get(i);
        List<LeaseRow> rows = u.leases().views().rows(List.of(name));
        if (rows.isEmpty()) {
            return "no row";
        }
        LeaseRow r = rows.getFirst();
        String holder = h.isPresent() && r.holder().equals(h.get().holder()) ? "the handle's"
                : r.holder().equals(holdersBefore.get(name)) ? "unchanged" : "another";
        String instance = r.instance().equals(u.leases().instance()) ? "ours" : "a stranger's";
        String expiry = r.held() ? "held" : r.expiresAtMs() == 0 ? "released" : "expired";
        return "holder " + holder + ", instance " + instance + ", term " + r.term() + ", " + expiry + ", slot "
                + r.slotMs() + ", unfinished " + r.unfinishedSlotMs() + ", rerun " + r.rerunSlotMs();
    }

    private static <T> T pick(Random random, T[] values) {
        return values[random.nextInt(values.length)];
    }

    /** A data source that runs an armed action once, as the n-th connection after arming is asked for. */
    private static final class Hook {
        private final DataSource dataSource;
        private final AtomicReference<Runnable> armed = new AtomicReference<>();
        private final AtomicInteger asked = new AtomicInteger();
        private volatile int runAt;

        Hook(DataSource target) {
            this.dataSource = BeforeConnection.wrap(target, () -> {
                if (asked.incrementAndGet() == runAt) {
                    Runnable action = armed.getAndSet(null);
                    if (action != null) {
                        action.run();
                    }
                }
            });
        }

        DataSource dataSource() {
            return dataSource;
        }

        /**
         * Runs {@code action} as connection {@code runAt} from now is asked for: 2 runs it after a
         * claim's read, 1 before its first statement.
         */
        void arm(Runnable action, int runAt) {
            asked.set(0);
            this.runAt = runAt;
            armed.set(action);
        }

        /** Runs the armed action now if no second connection was asked for: the read decided everything. */
        void runIfArmed() {
            Runnable action = armed.getAndSet(null);
            if (action != null) {
                action.run();
            }
        }
    }
}
