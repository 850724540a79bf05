package dev.leasecron.config;

import com.cronutils.model.time.ExecutionTime;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A job's schedule: a cron expression read in a time zone, giving the instants its rounds are for.
 *
 * <p>Syntax: 5-field Unix cron, 6 fields with seconds first, or a macro ({@code @yearly},
 * {@code @annually}, {@code @monthly}, {@code @weekly}, {@code @daily}, {@code @midnight},
 * {@code @hourly}). Day-of-week is 0-7 (0 and 7 are Sunday); when both day-of-month and day-of-week
 * are restricted, a day matching either runs, as in Vixie cron.
 *
 * <p>Daylight-saving rule (the one Vixie cron uses). The expression names wall-clock times; each is
 * turned into instants thus:
 * <ol>
 *   <li>A wall time that exists once runs at that instant.
 *   <li>Spring forward: a wall time inside the gap does not exist; it runs once at the first instant
 *       after the gap (with a 02:00&rarr;03:00 jump, 02:30 runs at 03:00). Several gap times, and a
 *       match at 03:00 itself, fold into that one run: never twice, never lost.
 *   <li>Fall back: a wall time in the repeated hour runs once, at its first occurrence, unless the
 *       schedule's hour field is {@code *} (it fires every hour: {@code @hourly}, every 5 minutes,
 *       every 5 seconds). Such interval schedules keep firing through both occurrences, so they run
 *       every real hour (minute, second) without a two-hour hole.
 * </ol>
 * Instants are therefore strictly increasing and the daemon never sees one twice.
 *
 * <p>Instances are safe to share between threads. Each keeps the last {@value #RUN_LENGTH}
 * consecutive instants it found ({@link Known}): a scheduler asks about the same few instants
 * several times per round (the next one, the one that has come, those a round overran), and an
 * answer from them costs no cron evaluation, which was about a quarter of a replica's CPU under a
 * sustained load of jobs every second. Nothing is evaluated ahead of a question but the instant
 * after one found at or before a moment, which a round that ended late asks next.
 */
public final class Schedule {
    static final int RUN_LENGTH = 16;

    /**
     * Found by cron evaluations: {@code run} holds every instant after {@code after} up to its last,
     * in order; {@code after} is an instant itself when {@code afterIsInstant}.
     */
    private record Known(Instant after, boolean afterIsInstant, Instant[] run) {
        private Instant last() {
            return run[run.length - 1];
        }

        /** The first instant strictly after {@code t}; null when not known. */
        Instant nextAfter(Instant t) {
            if (t.isBefore(after) || !t.isBefore(last())) {
                return null;
            }
            int lo = 0;
            int hi = run.length - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (run[mid].isAfter(t)) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return run[lo];
        }

        /** The latest instant at or before {@code t}; null when not known. */
        Instant atOrBefore(Instant t) {
            if (t.isBefore(after) || t.isAfter(last())) {
                return null;
            }
            if (t.isBefore(run[0])) {
                return afterIsInstant ? after : null;
            }
            int lo = 0;
            int hi = run.length - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (run[mid].isAfter(t)) {
                    hi = mid - 1;
                } else {
                    lo = mid;
                }
            }
            return run[lo];
        }

        /** These instants and {@code next}, the one after the last; the oldest dropped beyond {@value #RUN_LENGTH}. */
        Known extendedBy(Instant next) {
            if (run.length < RUN_LENGTH) {
                Instant[] longer = Arrays.copyOf(run, run.length + 1);
                longer[run.length] = next;
                return new Known(after, afterIsInstant, longer);
            }
            Instant[] shifted = Arrays.copyOfRange(run, 1, run.length + 1);
            shifted[run.length - 1] = next;
            return new Known(run[0], true, shifted);
        }

        boolean isInstant(Instant t) {
            return (afterIsInstant && t.equals(after)) || Arrays.binarySearch(run, t) >= 0;
        }
    }

    private final String expression;
    private final ZoneId zone;
    private final ExecutionTime wallClock;
    private final boolean firesEveryHour;
    private final String words;
    /** The last run found; any run is true for good, so a lost update between threads costs only time. */
    private volatile Known known;

    private Schedule(String expression, ZoneId zone, CronSyntax.Parsed parsed) {
        this.expression = expression;
        this.zone = zone;
        this.wallClock = parsed.wallClock();
        this.firesEveryHour = parsed.firesEveryHour();
        this.words = parsed.words();
    }

    /**
     * Reads {@code expression} in {@code zone}.
     *
     * @throws IllegalArgumentException saying what is wrong with the expression
     */
    public static Schedule parse(String expression, ZoneId zone) {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(zone, "zone");
        return new Schedule(expression, zone, CronSyntax.parse(expression));
    }

    /** The expression as written in the jobs file. */
    public String expression() {
        return expression;
    }

    /**
     * The schedule in English words for people (the dashboard), e.g. "every 5 seconds"; the
     * expression itself when it has no description. Not a stable format: never parse it.
     */
    public String inWords() {
        return words;
    }

    public ZoneId zone() {
        return zone;
    }

    /** The first instant strictly after {@code after}, in the schedule's zone; empty if none will come. */
    public Optional<ZonedDateTime> next(Instant after) {
        return nextInstant(after).map(instant -> instant.atZone(zone));
    }

    /** The first instant strictly after {@code after}; empty if none will come (e.g. 30 February). */
    public Optional<Instant> nextInstant(Instant after) {
        Known k = known;
        Instant answer = k == null ? null : k.nextAfter(after);
        if (answer != null) {
            return Optional.of(answer);
        }
        Optional<Instant> next = evaluateNext(after);
        next.ifPresent(found -> known = k != null && after.equals(k.last()) ? k.extendedBy(found)
                : new Known(after, k != null && k.isInstant(after), new Instant[] {found}));
        return next;
    }

    private Optional<Instant> evaluateNext(Instant after) {
        ZoneRules rules = zone.getRules();
        // The stretch of constant UTC offset that `after` lies in, and where it began.
        ZoneOffsetTransition stretchStart = rules.previousTransition(after.plusNanos(1));
        Instant anchor = after;
        LocalDateTime from = LocalDateTime.ofInstant(after, rules.getOffset(after));
        while (true) {
            ZoneOffset offset = rules.getOffset(anchor);
            if (skipsRepeatedTimes(stretchStart) && from.isBefore(stretchStart.getDateTimeBefore())) {
                from = stretchStart.getDateTimeBefore().minusNanos(1);
            }
            Optional<LocalDateTime> match = wallTimeAfter(from);
            if (match.isEmpty()) {
                return Optional.empty();
            }
            LocalDateTime wall = match.get();
            Instant candidate = wall.toInstant(offset);
            ZoneOffsetTransition stretchEnd = rules.nextTransition(anchor);
            if (stretchEnd == null || candidate.isBefore(stretchEnd.getInstant())) {
                return Optional.of(candidate);
            }
            if (stretchEnd.isGap() && wall.isBefore(stretchEnd.getDateTimeAfter())) {
                return Optional.of(stretchEnd.getInstant());
            }
            stretchStart = stretchEnd;
            anchor = stretchEnd.getInstant();
            from = stretchEnd.getDateTimeAfter().minusNanos(1);
        }
    }

    /**
     * The latest instant at or before {@code t}: the instant that has most recently come. Catch-up
     * uses it to find the newest missed instant. Empty if the schedule never fired before {@code t}.
     */
    public Optional<Instant> previousOrSame(Instant t) {
        Known k = known;
        Instant answer = k == null ? null : k.atOrBefore(t);
        if (answer != null) {
            return Optional.of(answer);
        }
        Optional<Instant> latest = evaluatePreviousOrSame(t);
        // The instant after it is what a round that ended late asks next.
        latest.ifPresent(at -> evaluateNext(at).ifPresent(next -> known = new Known(at, true, new Instant[] {next})));
        return latest;
    }

    private Optional<Instant> evaluatePreviousOrSame(Instant t) {
        ZoneRules rules = zone.getRules();
        ZoneOffsetTransition stretchStart = rules.previousTransition(t.plusNanos(1));
        ZoneOffset offset = rules.getOffset(t);
        LocalDateTime upTo = LocalDateTime.ofInstant(t, offset);
        while (true) {
            Optional<LocalDateTime> match = wallTimeAtOrBefore(upTo);
            if (match.isEmpty()) {
                return Optional.empty();
            }
            LocalDateTime wall = match.get();
            Instant candidate = wall.toInstant(offset);
            if (stretchStart == null) {
                return Optional.of(candidate);
            }
            boolean inStretch = !candidate.isBefore(stretchStart.getInstant());
            boolean secondOccurrence = skipsRepeatedTimes(stretchStart) && wall.isBefore(stretchStart.getDateTimeBefore());
            if (inStretch && !secondOccurrence) {
                return Optional.of(candidate);
            }
            if (!inStretch && stretchStart.isGap() && !wall.isBefore(stretchStart.getDateTimeBefore())) {
                return Optional.of(stretchStart.getInstant());
            }
            upTo = stretchStart.getDateTimeBefore().minusNanos(1);
            offset = stretchStart.getOffsetBefore();
            stretchStart = rules.previousTransition(stretchStart.getInstant());
        }
    }

    private boolean skipsRepeatedTimes(ZoneOffsetTransition stretchStart) {
        return !firesEveryHour && stretchStart != null && stretchStart.isOverlap();
    }

    // cron-utils evaluated in UTC is a pure wall-clock calculator: UTC has no gaps or overlaps, so
    // the time-zone rule above is applied here alone. Matches fall on whole seconds.
    private Optional<LocalDateTime> wallTimeAfter(LocalDateTime exclusive) {
        return wallClock.nextExecution(exclusive.truncatedTo(ChronoUnit.SECONDS).atZone(ZoneOffset.UTC))
                .map(ZonedDateTime::toLocalDateTime);
    }

    private Optional<LocalDateTime> wallTimeAtOrBefore(LocalDateTime inclusive) {
        return wallClock.lastExecution(inclusive.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1).atZone(ZoneOffset.UTC))
                .map(ZonedDateTime::toLocalDateTime);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Schedule schedule && schedule.expression.equals(expression) && schedule.zone.equals(zone);
    }

    @Override
    public int hashCode() {
        return Objects.hash(expression, zone);
    }

    @Override
    public String toString() {
        return expression + " (" + zone + ")";
    }
}
