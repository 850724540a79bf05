package dev.leasecron.app.web;

import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryOutcome;
import dev.leasecron.lease.HistoryTrigger;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** One row of a job's history as the pages show it: a round, or a span of instants not run. */
public record RoundView(HistoryEntry entry) {

    public String instant() {
        return Texts.utc(entry.instant());
    }

    /** The span's instants, {@code first … last (N)}; the round's instant for a round. */
    public String instants() {
        if (entry.instants() <= 1) {
            return instant();
        }
        return instant() + " … " + Texts.utc(entry.lastInstant()) + " (" + entry.instants() + ")";
    }

    public String outcome() {
        return entry.outcome().label();
    }

    /** A mark that says the outcome without colour: the pages never tell outcomes by colour alone. */
    public String mark() {
        return mark(entry.outcome());
    }

    static String mark(HistoryOutcome outcome) {
        return switch (outcome) {
            case OK -> "✓";
            case FAILED -> "✗";
            case TIMEOUT -> "◔";
            case CUT_SHORT -> "✂";
            case RUNNING -> "▶";
            case SKIPPED, MISSED, SUPERSEDED, SUSPENDED -> "–";
        };
    }

    public String trigger() {
        return entry.trigger().map(HistoryTrigger::label).orElse("");
    }

    public String instance() {
        return entry.instance();
    }

    public long term() {
        return entry.term();
    }

    public boolean rerun() {
        return entry.rerun();
    }

    public String started() {
        return entry.started().map(Texts::utc).orElse("");
    }

    public String duration() {
        return entry.duration().map(Texts::duration).orElse("");
    }

    public String fireDelay() {
        return entry.fireDelay().map(Texts::duration).orElse("");
    }

    public String detail() {
        return entry.detail();
    }

    /** The strip's cell: mark and duration, with the whole story in its title. */
    public String summary() {
        String what = outcome() + " " + instants();
        return entry.duration().map(d -> what + " in " + Texts.duration(d)).orElse(what);
    }

    Optional<Duration> rawDuration() {
        return entry.duration();
    }

    Instant rawInstant() {
        return entry.instant();
    }
}
