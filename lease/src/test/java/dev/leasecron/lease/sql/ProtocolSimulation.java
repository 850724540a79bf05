package dev.leasecron.lease.sql;

import dev.leasecron.lease.LeaseDatabaseException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * A deterministic simulation of the scheduler's lease decisions: the real statements of
 * {@link LeaseStore} on SQLite with a virtual database clock, and replicas whose claims, renewals,
 * local deadlines, probe commits, finishes and rerun sweeps are taken in virtual time, in an order
 * a seeded {@link Random} picks, under pauses, database cut-offs and crashes it also picks. The same
 * seed replays the same run, statement for statement.
 *
 * <p>Checked, as the fault harness checks the real processes: no probe transaction commits under a
 * term older than one already committed; an instant is claimed as a first round at most once and a
 * second time at most once, the second time only when its first round did not run to its end; and
 * a round cut short is, by the end, run again or given up for a later instant, exactly one of them.
 */
final class ProtocolSimulation {
    static final long LEASE_MS = 3000;
    static final long RENEW_MS = 400;
    static final long DEADLINE_MS = 2000;
    static final long PERIOD_MS = 1000;
    private static final long TICK_MS = 25;
    private static final String NAME = "cron:sim";

    /** Which decisions the replicas take; the broken ones exist to show the checks can fail. */
    enum Logic {
        /** As the scheduler decides. */
        AS_SPECIFIED,
        /** Renewals without the local deadline: a holder cut off from the database believes it holds on. */
        NO_LOCAL_DEADLINE
    }

    private final long seed;
    private final Logic logic;
    private final Random random;
    private final List<SimReplica> replicas = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private final Map<Long, Integer> firstClaims = new HashMap<>();
    private final Map<Long, Integer> reruns = new HashMap<>();
    private final Set<Long> finished = new HashSet<>();
    private final Set<Long> cutShort = new HashSet<>();
    private final Set<Long> superseded = new HashSet<>();
    private long highestCommittedTerm;
    private int rounds;
    private VirtualDatabase db;

    ProtocolSimulation(long seed, Logic logic) {
        this.seed = seed;
        this.logic = logic;
        this.random = new Random(seed);
    }

    SimOutcome run(int replicaCount, Duration length) throws SQLException {
        try (VirtualDatabase database = new VirtualDatabase(Duration.ofMillis(LEASE_MS))) {
            db = database;
            long start = db.nowMs;
            for (int i = 0; i < replicaCount; i++) {
                SimReplica r = new SimReplica("r" + i);
                r.cursor = start - start % PERIOD_MS;
                replicas.add(r);
            }
            long end = start + length.toMillis();
            while (db.nowMs < end) {
                injectFaults();
                List<SimReplica> order = new ArrayList<>(replicas);
                Collections.shuffle(order, random);
                for (SimReplica r : order) {
                    step(r);
                }
                db.nowMs += 1 + random.nextInt((int) TICK_MS);
            }
            heal(end);
            for (long settle = end + 2 * LEASE_MS + PERIOD_MS; db.nowMs < settle; db.nowMs += TICK_MS) {
                replicas.forEach(this::step);
            }
            checkCutShortResolved();
            return new SimOutcome(seed, violations, rounds, reruns.size(), superseded.size());
        }
    }

    private void injectFaults() {
        for (SimReplica r : replicas) {
            int dice = random.nextInt(4000);
            if (dice < 3) {
                r.pausedUntilMs = db.nowMs + 500 + random.nextInt(5000);
            } else if (dice < 6) {
                r.netDownUntilMs = db.nowMs + 500 + random.nextInt(4000);
            } else if (dice < 8) {
                crash(r, db.nowMs + 500 + random.nextInt(2000));
            }
        }
    }

    /** A crash leaves the lease to expire and the round unfinished: a peer's sweep reruns it. */
    private void crash(SimReplica r, long until) {
        if (r.round != null) {
            cutShort.add(r.round.slotMs);
        }
        r.round = null;
        r.deadUntilMs = until;
    }

    private void heal(long now) {
        for (SimReplica r : replicas) {
            r.pausedUntilMs = Math.min(r.pausedUntilMs, now);
            r.netDownUntilMs = Math.min(r.netDownUntilMs, now);
            r.deadUntilMs = Math.min(r.deadUntilMs, now);
        }
    }

    private void step(SimReplica r) {
        long now = db.nowMs;
        if (now < r.pausedUntilMs) {
            return;
        }
        if (now < r.deadUntilMs) {
            return;
        }
        if (r.deadUntilMs != 0 && r.round == null && r.cursor < now - PERIOD_MS * 2) {
            r.cursor = now - now % PERIOD_MS; // a new process: its job loop starts at the database's now
        }
        try {
            if (r.round != null) {
                stepRound(r, now);
            } else {
                stepIdle(r, now);
            }
        } catch (LeaseDatabaseException | NetworkDown e) {
            // The database did not answer: the scheduler tries again at its own cadence.
        }
    }

    private void stepRound(SimReplica r, long now) {
        SimReplica.Round round = r.round;
        if (logic == Logic.AS_SPECIFIED && now - round.lastGoodRenewStartMs >= DEADLINE_MS) {
            cutShortRound(r, "no renewal within the local deadline");
            return;
        }
        if (now >= round.nextRenewMs) {
            round.nextRenewMs = now + RENEW_MS;
            reachable(r);
            if (db.store().renew(NAME, round.holder) == 0) {
                cutShortRound(r, "renewal found the lease gone");
                return;
            }
            round.lastGoodRenewStartMs = now;
        }
        if (now >= round.workEndsMs) {
            reachable(r);
            commitProbe(round, now);
            long passed = latestInstant(now);
            if (db.store().finish(NAME, round.holder, passed) == 0) {
                db.store().finishWithoutLease(NAME, round.slotMs);
            }
            finished.add(round.slotMs);
            r.cursor = Math.max(r.cursor, passed);
            r.round = null;
        }
    }

    /** The probe's commit: the transaction was verified when the round began; it commits in this order. */
    private void commitProbe(SimReplica.Round round, long now) {
        if (round.term < highestCommittedTerm) {
            violations.add("seed " + seed + " at " + now + " ms: term " + round.term + " (instant " + round.slotMs
                    + ") committed after term " + highestCommittedTerm);
        }
        highestCommittedTerm = Math.max(highestCommittedTerm, round.term);
    }

    private void cutShortRound(SimReplica r, String reason) {
        cutShort.add(r.round.slotMs);
        String holder = r.round.holder;
        r.round = null;
        if (db.nowMs >= r.netDownUntilMs) {
            db.store().release(NAME, holder);
        }
    }

    private void stepIdle(SimReplica r, long now) {
        if (now >= r.nextSweepMs) {
            r.nextSweepMs = now + RENEW_MS;
            reachable(r);
            for (FoundUnfinished f : db.store().findUnfinished(List.of(NAME), 0)) {
                String holder = newHolder();
                if (db.store().claimAgain(f.name(), f.term(), holder, r.instance) == 1) {
                    reruns.merge(f.slotMs(), 1, Integer::sum);
                    if (reruns.get(f.slotMs()) > 1) {
                        violations.add("seed " + seed + ": instant " + f.slotMs() + " claimed a second time twice");
                    }
                    if (finished.contains(f.slotMs())) {
                        violations.add("seed " + seed + ": instant " + f.slotMs() + " rerun after it ran to its end");
                    }
                    startRound(r, holder, f.term() + 1, f.slotMs(), true, now);
                    return;
                }
            }
        }
        long next = r.cursor + PERIOD_MS;
        if (now < next) {
            return;
        }
        r.cursor = next;
        reachable(r);
        claimSlot(r, next, now);
    }

    /** {@code Leases.claimSlot}'s decisions: read, then write guarded by what was read. */
    private void claimSlot(SimReplica r, long slot, long now) {
        Optional<SlotRow> read = db.store().readSlot(NAME);
        String holder = newHolder();
        if (read.isEmpty()) {
            if (db.store().insertSlot(NAME, holder, r.instance, slot) == 1) {
                claimedFirst(r, holder, 1, slot, now);
            }
            return;
        }
        SlotRow row = read.get();
        if (!row.expired() || slot <= row.slotMs()) {
            return;
        }
        if (random.nextInt(4) == 0) {
            // Let the other replicas act between the read and the write: the term guard must hold.
            List<SimReplica> others = new ArrayList<>(replicas);
            others.remove(r);
            others.forEach(this::step);
        }
        if (db.store().claimSlot(NAME, holder, r.instance, slot, row) == 1) {
            if (row.lastUnfinished()) {
                if (!superseded.add(row.slotMs()) || reruns.containsKey(row.slotMs()) && !row.lastRerun()) {
                    violations.add("seed " + seed + ": instant " + row.slotMs() + " given up twice or after its rerun");
                }
            }
            claimedFirst(r, holder, row.term() + 1, slot, now);
        }
    }

    private void claimedFirst(SimReplica r, String holder, long term, long slot, long now) {
        if (firstClaims.merge(slot, 1, Integer::sum) > 1) {
            violations.add("seed " + seed + ": instant " + slot + " claimed as a first round twice");
        }
        startRound(r, holder, term, slot, false, now);
    }

    private void startRound(SimReplica r, String holder, long term, long slot, boolean rerun, long now) {
        rounds++;
        // The probe transaction opens with the guard's verify; a lease already gone fails the round.
        if (db.store().reads().verify(NAME, holder).isEmpty()) {
            cutShort.add(slot);
            return;
        }
        long work = 50 + random.nextInt(random.nextInt(10) == 0 ? 4000 : 800);
        r.round = new SimReplica.Round(holder, term, slot, rerun, now, RENEW_MS, work);
    }

    /** A round cut short is run again or given up for a later instant: exactly one of the two. */
    private void checkCutShortResolved() {
        for (long slot : cutShort) {
            if (finished.contains(slot)) {
                continue; // cut short once, then run to its end by its rerun
            }
            boolean rerun = reruns.containsKey(slot);
            boolean givenUp = superseded.contains(slot);
            if (!rerun && !givenUp) {
                violations.add("seed " + seed + ": instant " + slot + " was cut short and neither rerun nor given up");
            }
        }
    }

    private void reachable(SimReplica r) {
        if (db.nowMs < r.netDownUntilMs) {
            throw new NetworkDown();
        }
    }

    private long latestInstant(long now) {
        return now - now % PERIOD_MS;
    }

    private String newHolder() {
        return Long.toHexString(random.nextLong());
    }

    /** A statement of a replica cut off from the database. */
    private static final class NetworkDown extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NetworkDown() {
            super(null, null, false, false);
        }
    }
}
