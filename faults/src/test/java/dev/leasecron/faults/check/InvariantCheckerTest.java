package dev.leasecron.faults.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The checker fails on each broken promise, fed a crafted probe table and logs, and passes the
 * same history kept whole. A job "j" runs every second; the window holds instants 10 s to 13 s.
 */
class InvariantCheckerTest {
    private static final long T = 1_700_000_000_000L;
    private final InvariantChecker checker =
            new InvariantChecker(List.of(new JobSchedule("j", 1)), Duration.ofMillis(2000));
    private final List<ProbeRow> rows = new ArrayList<>();
    private final List<LogEvent> events = new ArrayList<>();
    private final Map<String, Integer> exits = new HashMap<>();

    @Test
    void aWholeHistoryPasses() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r2.1");
        ran(12, 3, "r1.1");
        ran(13, 4, "r1.1");
        Verdict v = check();
        assertTrue(v.ok(), v.violations().toString());
        assertEquals(4, v.count(Accounting.RAN));
    }

    @Test
    void overlappingTermsFail() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r2.1");
        rows.set(0, new ProbeRow("j", ms(10), 1, "h", false, ms(10) + 10, ms(11) + 500, 0)); // term 1 still open
        ran(12, 3, "r1.1");
        ran(13, 4, "r1.1");
        assertViolation("term-order", "still in its transaction");
    }

    @Test
    void aCommitUnderAStaleTermFails() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r2.1");
        ran(12, 3, "r1.1");
        ran(13, 4, "r1.1");
        rows.add(new ProbeRow("j", ms(10), 5, "h", false, ms(14), ms(14) + 10, 7));
        assertViolation("term-order", "committed after term 7");
    }

    @Test
    void aSilentlyMissingInstantFails() {
        ran(10, 1, "r1.1");
        ran(12, 3, "r1.1");
        ran(13, 4, "r1.1");
        assertViolation("accounting", "silently missing");
    }

    @Test
    void anInstantClaimedTwiceFails() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r2.1");
        ran(11, 3, "r1.1");
        ran(12, 4, "r1.1");
        ran(13, 5, "r1.1");
        assertViolation("duplicate", "ran as a first round 2 times");
    }

    @Test
    void twoRerunsFail() {
        ran(10, 1, "r1.1");
        start(11, 2, false, "r2.1"); // killed
        rerun(11, 3, "r1.1");
        rerun(11, 4, "r3.1");
        ran(12, 5, "r1.1");
        ran(13, 6, "r1.1");
        assertViolation("duplicate", "ran as a rerun 2 times");
    }

    @Test
    void aRerunOfARoundThatRanToItsEndFails() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r2.1");
        rerun(11, 3, "r1.1");
        ran(12, 4, "r1.1");
        ran(13, 5, "r1.1");
        assertViolation("duplicate", "ran again after its first round ran to its end");
    }

    @Test
    void aRerunOfARoundWhoseEndCameAfterItsLeaseIsAllowed() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r2.1");
        events.add(event("r2.1", ms(11) + 99, "lease.lost", Map.of("job", "j", "term", "2")));
        rerun(11, 3, "r1.1");
        ran(12, 4, "r1.1");
        ran(13, 5, "r1.1");
        Verdict v = check();
        assertTrue(v.ok(), v.violations().toString());
        assertEquals(1, v.count(Accounting.RERUN));
    }

    @Test
    void aRoundWhoseFinishFailedRanWhetherOrNotItRunsAgain() {
        // Its finish may have landed with only the answer lost: the claim that follows gives nothing up.
        ran(10, 1, "r1.1");
        ran(11, 2, "r1.1");
        events.add(event("r1.1", ms(11) + 500, "round.finish_failed", Map.of("job", "j", "term", "2")));
        ran(12, 3, "r2.1");
        ran(13, 4, "r2.1");
        Verdict v = check();
        assertTrue(v.ok(), v.violations().toString());
        assertEquals(4, v.count(Accounting.RAN));
    }

    @Test
    void aRoundKilledAfterItsFinishLandedRanWhenTheNextClaimReadItAsEnded() {
        ran(10, 1, "r1.1");
        start(11, 2, false, "r1.1");
        rows.add(new ProbeRow("j", ms(11), 2, "h2", false, ms(11) + 10, ms(11) + 90, 1));
        // r1.1 died before logging the end; the claim of 12 read 11 as the last instant on record.
        events.add(event("r2.1", ms(12), "round.start", Map.of("job", "j", "instant", iso(12), "term", "3",
                "rerun", "false", "last_on_record", iso(11))));
        end(12, 3, false, "ok", "r2.1");
        rows.add(new ProbeRow("j", ms(12), 3, "h3", false, ms(12) + 10, ms(12) + 90, 2));
        ran(13, 4, "r2.1");
        Verdict v = check();
        assertTrue(v.ok(), v.violations().toString());
        assertEquals(4, v.count(Accounting.RAN));
    }

    @Test
    void anOverrunSkipOnRecordCountsWhenItsProcessWasKilledBeforeLoggingIt() {
        overranInto12ThenNextClaimRead12(0);
        Verdict v = check();
        assertTrue(v.ok(), v.violations().toString());
        assertEquals(1, v.count(Accounting.SKIPPED));
    }

    @Test
    void anOverrunSkipOnRecordThatALivingProcessNeverLoggedFails() {
        overranInto12ThenNextClaimRead12(5_000);
        assertViolation("accounting", "is silently missing");
    }

    /** Round 11 overran 12 and its finish took 12 along; r1.1 wrote its last entry {@code livedOnMs} after the end. */
    private void overranInto12ThenNextClaimRead12(long livedOnMs) {
        ran(10, 1, "r2.1");
        start(11, 2, false, "r1.1");
        rows.add(new ProbeRow("j", ms(11), 2, "h2", false, ms(11) + 10, ms(12) + 400, 1));
        events.add(event("r1.1", ms(12) + 500, "round.end", Map.of("job", "j", "instant", iso(11), "term", "2",
                "rerun", "false", "outcome", "ok")));
        events.add(event("r1.1", ms(12) + 500 + livedOnMs, "round.start", Map.of("job", "other", "instant",
                iso(17), "term", "1", "rerun", "false")));
        events.add(event("r2.1", ms(13), "round.start", Map.of("job", "j", "instant", iso(13), "term", "3",
                "rerun", "false", "last_on_record", iso(12))));
        end(13, 3, false, "ok", "r2.1");
        rows.add(new ProbeRow("j", ms(13), 3, "h3", false, ms(13) + 10, ms(13) + 90, 2));
    }

    @Test
    void aRoundCutShortAndNeverRunAgainFails() {
        ran(10, 1, "r1.1");
        start(11, 2, false, "r2.1");
        end(11, 2, false, "cut_short", "r2.1");
        ran(12, 3, "r1.1");
        ran(13, 4, "r1.1");
        assertViolation("accounting", "neither ran again nor was logged superseded");
    }

    @Test
    void aRoundCutShortThatTheNextClaimPassedWithoutSupersedingFails() {
        ran(10, 1, "r1.1");
        start(11, 2, false, "r2.1");
        end(11, 2, false, "cut_short", "r2.1");
        events.add(event("r1.1", ms(12), "round.start", Map.of("job", "j", "instant", iso(12), "term", "3",
                "rerun", "false", "last_on_record", iso(11))));
        end(12, 3, false, "ok", "r1.1");
        ran(13, 4, "r1.1");
        assertViolation("accounting", "neither ran again nor was logged superseded");
    }

    @Test
    void skippedSupersededUnclaimedAndRerunInstantsAreAccounted() {
        ran(10, 1, "r1.1");
        events.add(event("r1.1", 0, "instant.skipped", Map.of("job", "j", "first", iso(11), "last", iso(11), "count", "1")));
        start(12, 2, false, "r2.1");
        rerun(12, 3, "r1.1");
        events.add(event("r1.1", 0, "instant.unclaimed", Map.of("job", "j", "instant", iso(13))));
        Verdict v = check();
        assertTrue(v.ok(), v.violations().toString());
        assertEquals(1, v.count(Accounting.SKIPPED));
        assertEquals(1, v.count(Accounting.RERUN));
        assertEquals(1, v.count(Accounting.UNCLAIMED));
    }

    @Test
    void everyInstantOfAnUnclaimedSpanIsAccounted() {
        ran(10, 1, "r1.1");
        events.add(event("r1.1", 0, "instant.unclaimed", Map.of("job", "j", "instant", iso(11), "last", iso(12),
                "count", "2")));
        ran(13, 2, "r1.1");
        Verdict v = check();
        assertTrue(v.ok(), v.violations().toString());
        assertEquals(2, v.count(Accounting.UNCLAIMED));
    }

    @Test
    void instantsAClaimLoggedMissedAreAccounted() {
        ran(10, 1, "r1.1");
        events.add(event("r2.1", 0, "instant.missed", Map.of("job", "j", "first", iso(11), "last", iso(12), "count", "2")));
        ran(13, 2, "r2.1");
        Verdict v = check();
        assertTrue(v.ok(), v.violations().toString());
        assertEquals(2, v.count(Accounting.UNCLAIMED));
    }

    @Test
    void anInstantLoggedMissedThatRanFails() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r1.1");
        events.add(event("r2.1", 0, "instant.missed", Map.of("job", "j", "first", iso(11), "last", iso(12), "count", "2")));
        ran(13, 3, "r2.1");
        assertViolation("accounting", "both ran and was logged missed");
    }

    @Test
    void aReleaseHeldUpByTheDatabaseDoesNotCountAgainstTheGrace() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r1.1");
        ran(12, 3, "r1.1");
        start(13, 4, false, "r1.1");
        rows.add(new ProbeRow("j", ms(13), 4, "h4", false, ms(13) + 10, ms(13) + 90, 3));
        // Lost at 13.2 s, work returned at 13.5 s, then the release waited 4 s on the database.
        events.add(event("r1.1", ms(13) + 200, "lease.lost", Map.of("lease", "cron:j", "term", "4")));
        events.add(event("r1.1", ms(17) + 500, "round.end", Map.of("job", "j", "instant", iso(13), "term", "4",
                "rerun", "false", "outcome", "cut_short", "duration_ms", "4500", "work_ms", "500")));
        rerun(13, 5, "r2.1");
        Verdict v = check();
        assertTrue(v.ok(), v.violations().toString());
    }

    @Test
    void aRoundThatDidNotStopWithinTheGraceFails() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r1.1");
        ran(12, 3, "r1.1");
        ran(13, 4, "r1.1");
        // Round 4 logs its end at 13.1 s: a loss at 8.1 s leaves it 5 s, past the 2 s bound.
        events.add(event("r1.1", ms(8) + 100, "lease.lost", Map.of("lease", "cron:j", "term", "4")));
        assertViolation("step-down", "after its lease was lost");
    }

    @Test
    void workThatWouldNotStopMustFailTheProcess() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r1.1");
        ran(12, 3, "r1.1");
        ran(13, 4, "r1.1");
        events.add(event("r2.1", ms(12), "lease.would_not_stop", Map.of("lease", "cron:j", "term", "9")));
        exits.put("r2.1", 0);
        assertViolation("step-down", "would not stop");
        exits.put("r2.1", 70);
        assertTrue(check().ok());
    }

    @Test
    void aLossWhoseRoundNeverEndedInACleanProcessFails() {
        ran(10, 1, "r1.1");
        ran(11, 2, "r1.1");
        ran(12, 3, "r1.1");
        ran(13, 4, "r1.1");
        events.add(event("r2.1", ms(12), "lease.lost", Map.of("lease", "cron:j", "term", "9")));
        exits.put("r2.1", 0);
        assertViolation("step-down", "never ended");
        exits.put("r2.1", 137); // killed by the harness: nothing more to say
        assertTrue(check().ok());
    }

    private void assertViolation(String invariant, String text) {
        Verdict v = check();
        assertTrue(v.violations().stream().anyMatch(x -> x.invariant().equals(invariant) && x.detail().contains(text)),
                "expected a " + invariant + " violation containing \"" + text + "\", got " + v.violations());
    }

    private Verdict check() {
        return checker.check(ms(10), ms(13), rows, events, exits);
    }

    private void ran(int second, long term, String process) {
        start(second, term, false, process);
        rows.add(new ProbeRow("j", ms(second), term, "h" + term, false, ms(second) + 10, ms(second) + 90, term - 1));
        end(second, term, false, "ok", process);
    }

    private void rerun(int second, long term, String process) {
        start(second, term, true, process);
        rows.add(new ProbeRow("j", ms(second), term, "h" + term, true, ms(second) + 300, ms(second) + 390, term - 1));
        end(second, term, true, "ok", process);
    }

    private void start(int second, long term, boolean rerun, String process) {
        events.add(event(process, ms(second), "round.start", Map.of("job", "j", "instant", iso(second),
                "term", Long.toString(term), "rerun", Boolean.toString(rerun))));
    }

    private void end(int second, long term, boolean rerun, String outcome, String process) {
        events.add(event(process, ms(second) + 100, "round.end", Map.of("job", "j", "instant", iso(second),
                "term", Long.toString(term), "rerun", Boolean.toString(rerun), "outcome", outcome)));
    }

    private static LogEvent event(String process, long at, String name, Map<String, String> fields) {
        return new LogEvent(process, at, name, fields);
    }

    private static long ms(int second) {
        return T + second * 1000L;
    }

    private static String iso(int second) {
        return Instant.ofEpochMilli(ms(second)).toString();
    }
}
