package dev.leasecron.app.web;

import dev.leasecron.config.JobSpec;
import dev.leasecron.config.Scope;
import dev.leasecron.lease.Suspension;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A job of the config in force with what the database says of it.
 *
 * @param spec the job as the jobs file gives it
 * @param next its next instants, soonest first (none for a disabled job or a schedule that ended)
 * @param holder its lease row; empty when it has none (never claimed) or the rows could not be read
 * @param last its newest round that ended; empty when none or the history could not be read
 * @param recent its newest rounds and spans, oldest first, for the strip
 * @param suspension its suspension by an operator; empty when it runs, or the suspensions could not be read
 */
public record JobView(JobSpec spec, List<Instant> next, Optional<HolderView> holder, Optional<RoundView> last,
        List<RoundView> recent, Optional<Suspension> suspension) {

    /** A job no operator suspended (or whose suspensions could not be read). */
    public JobView(JobSpec spec, List<Instant> next, Optional<HolderView> holder, Optional<RoundView> last,
            List<RoundView> recent) {
        this(spec, next, holder, last, recent, Optional.empty());
    }

    public String name() {
        return spec.name();
    }

    public String path() {
        return Texts.jobPath(spec.name());
    }

    public String schedule() {
        return spec.schedule().expression();
    }

    public String scheduleInWords() {
        return spec.schedule().inWords();
    }

    public String zone() {
        return spec.timeZone().getId();
    }

    public String type() {
        return spec.type();
    }

    public boolean enabled() {
        return spec.enabled();
    }

    public String scope() {
        return spec.scope() == Scope.CLUSTER ? "cluster" : "replica";
    }

    /** The next instants in the job's zone, with its offset. */
    public List<String> nextInZone() {
        return next.stream().map(i -> Texts.inZone(i, spec.timeZone())).toList();
    }

    public boolean suspended() {
        return suspension.isPresent();
    }

    /** {@code since 2026-12-06 18:50:05Z by admin: reason}; empty when not suspended. */
    public String suspensionText() {
        return suspension.map(s -> "since " + Texts.utc(s.since()) + " by " + s.by()
                + (s.reason().isEmpty() ? "" : ": " + s.reason())).orElse("");
    }

    public List<String> nextUtc() {
        return next.stream().map(Texts::utc).toList();
    }
}
