package dev.leasecron.app.web;

import dev.leasecron.config.JobSpec;
import dev.leasecron.lease.DatabaseClock;
import dev.leasecron.lease.HistoryEntry;
import dev.leasecron.lease.HistoryQuery;
import dev.leasecron.lease.LeaseRow;
import dev.leasecron.lease.Leases;
import dev.leasecron.lease.RunRequest;
import dev.leasecron.lease.Suspension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Reads what the pages show, from the config in force, the lease rows and the round history. Each
 * page costs a few statements whatever the number of jobs: the rows of all jobs, their manual rounds
 * running, the last ended round of all jobs, and one history read.
 */
public final class ReadModel {
    /** Next instants shown per job. */
    static final int NEXT_INSTANTS = 3;
    /** Rounds in a job's strip on {@code /}. */
    static final int STRIP = 12;
    /** The most history rows {@code /} reads for all strips together. */
    static final int STRIP_BUDGET = 2_000;
    /** A replica counts as sharing the jobs while it claimed one of their instants this recently. */
    static final Duration CENSUS_WINDOW = Duration.ofMinutes(10);

    private final Supplier<List<JobSpec>> jobs;
    private final Leases leases;
    private final Clock clock;

    /**
     * @param jobs the jobs of the config in force, in file order, disabled ones too; asked on each read
     * @param leases the primary database's leases and history
     * @param clock the clock pages are read by until this replica has read the database clock once;
     *     from then on, the database clock, as the scheduler's instants are
     */
    public ReadModel(Supplier<List<JobSpec>> jobs, Leases leases, Clock clock) {
        this.jobs = jobs;
        this.leases = leases;
        this.clock = clock;
    }

    private Instant now() {
        DatabaseClock database = leases.clock();
        return database.known() ? database.now() : clock.instant();
    }

    /** The name of the replica serving the pages. */
    public String instance() {
        return leases.instance();
    }

    public Pages.JobsPage jobsPage() {
        Instant now = now();
        List<JobSpec> specs = jobs.get();
        List<String> names = specs.stream().map(JobSpec::leaseName).toList();
        List<String> errors = new ArrayList<>();
        Map<String, HolderView> holders = holders(names, errors);
        Fetched<Map<String, HistoryEntry>> last = Fetched.of("history", () -> leases.history().lastEnded(names));
        Fetched<List<HistoryEntry>> recent = names.isEmpty() ? new Fetched<>(Optional.of(List.of()), "")
                : Fetched.of("history", () -> leases.history().entries(
                        HistoryQuery.latest(names, Math.min(STRIP_BUDGET, STRIP * names.size()))));
        if (last.failed()) {
            errors.add(last.error());
        } else if (recent.failed()) {
            errors.add(recent.error());
        }
        Map<String, Suspension> suspended = suspensions(names, errors);
        Map<String, List<RoundView>> strips = recent.value().orElse(List.of()).stream()
                .collect(Collectors.groupingBy(HistoryEntry::name, Collectors.mapping(RoundView::new, Collectors.toList())));
        List<JobView> views = specs.stream().map(spec -> {
            List<RoundView> strip = new ArrayList<>(strips.getOrDefault(spec.leaseName(), List.of()));
            strip = new ArrayList<>(strip.subList(0, Math.min(STRIP, strip.size())));
            Collections.reverse(strip);
            return view(spec, now, holders,
                    last.value().map(m -> m.get(spec.leaseName())).map(RoundView::new), strip, suspended);
        }).toList();
        return new Pages.JobsPage(instance(), now.truncatedTo(ChronoUnit.MILLIS), views, errors);
    }

    /** The page of the job called {@code name}; empty when the config in force has no such job. */
    public Optional<Pages.JobPage> jobPage(String name, RoundFilter filter) {
        Optional<JobSpec> found = jobs.get().stream().filter(j -> j.name().equals(name)).findFirst();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        JobSpec spec = found.get();
        Instant now = now().truncatedTo(ChronoUnit.MILLIS);
        List<String> errors = new ArrayList<>();
        Map<String, HolderView> holders = holders(List.of(spec.leaseName()), errors);
        HistoryQuery query = new HistoryQuery(Set.of(spec.leaseName()), filter.outcome().map(Set::of).orElse(Set.of()),
                Optional.empty(), filter.limit());
        Fetched<List<HistoryEntry>> entries = Fetched.of("history", () -> leases.history().entries(query));
        Fetched<Map<String, HistoryEntry>> last = Fetched.of("history",
                () -> leases.history().lastEnded(List.of(spec.leaseName())));
        if (entries.failed()) {
            errors.add(entries.error());
        }
        Map<String, Suspension> suspended = suspensions(List.of(spec.leaseName()), errors);
        List<RoundView> rounds = entries.value().orElse(List.of()).stream().map(RoundView::new).toList();
        JobView job = view(spec, now, holders, last.value().map(m -> m.get(spec.leaseName())).map(RoundView::new),
                List.of(), suspended);
        return Optional.of(new Pages.JobPage(instance(), now, job, filter, rounds, errors));
    }

    public Pages.ReplicasPage replicasPage() {
        Instant now = now();
        List<JobSpec> specs = jobs.get();
        List<String> names = specs.stream().map(JobSpec::leaseName).toList();
        Map<String, String> jobOfLease = specs.stream().collect(Collectors.toMap(JobSpec::leaseName, JobSpec::name,
                (a, b) -> a, LinkedHashMap::new));
        List<String> errors = new ArrayList<>();
        Map<String, HolderView> holders = holders(names, errors);
        Fetched<Set<String>> claiming = names.isEmpty() ? new Fetched<>(Optional.of(Set.of()), "")
                : Fetched.of("replica census", () -> leases.views().claimingInstances(names, CENSUS_WINDOW));
        if (claiming.failed()) {
            errors.add(claiming.error());
        }
        Map<String, List<String>> won = new TreeMap<>();
        Map<String, List<String>> holds = new TreeMap<>();
        Map<String, List<String>> running = new TreeMap<>();
        for (HolderView holder : holders.values()) {
            LeaseRow row = holder.row();
            if (!row.instance().isEmpty()) {
                won.computeIfAbsent(row.instance(), k -> new ArrayList<>()).add(jobOfLease.get(row.name()));
            }
            if (row.held() && !row.instance().isEmpty()) {
                holds.computeIfAbsent(row.instance(), k -> new ArrayList<>()).add(jobOfLease.get(row.name()));
                if (holder.running()) {
                    running.computeIfAbsent(row.instance(), k -> new ArrayList<>()).add(jobOfLease.get(row.name()));
                }
            }
        }
        Set<String> lately = claiming.value().orElse(Set.of());
        TreeMap<String, Boolean> all = new TreeMap<>();
        lately.forEach(i -> all.put(i, true));
        won.keySet().forEach(i -> all.putIfAbsent(i, false));
        all.putIfAbsent(instance(), lately.contains(instance()));
        List<ReplicaView> replicas = all.entrySet().stream().map(e -> new ReplicaView(e.getKey(),
                e.getKey().equals(instance()), e.getValue(), sorted(won.get(e.getKey())), sorted(holds.get(e.getKey())),
                sorted(running.get(e.getKey())))).toList();
        return new Pages.ReplicasPage(instance(), now.truncatedTo(ChronoUnit.MILLIS), new Pages.Duration(CENSUS_WINDOW), replicas, errors);
    }

    /** The lease rows of {@code names} with the manual rounds running under them, by lease name; failures said in {@code errors}. */
    private Map<String, HolderView> holders(List<String> names, List<String> errors) {
        if (names.isEmpty()) {
            return Map.of();
        }
        Fetched<List<LeaseRow>> rows = Fetched.of("lease rows", () -> leases.views().rows(names));
        if (rows.failed()) {
            errors.add(rows.error());
            return Map.of();
        }
        Fetched<Map<String, RunRequest>> manual = Fetched.of("run requests",
                () -> leases.controls().runningManualRounds(names));
        if (manual.failed()) {
            errors.add(manual.error());
        }
        Map<String, RunRequest> running = manual.value().orElse(Map.of());
        return rows.value().get().stream().collect(Collectors.toMap(LeaseRow::name,
                row -> new HolderView(row, Optional.ofNullable(running.get(row.name()))), (a, b) -> a));
    }

    /** The suspensions among {@code names}, by lease name; none when they cannot be read (then said in {@code errors}). */
    private Map<String, Suspension> suspensions(List<String> names, List<String> errors) {
        if (names.isEmpty()) {
            return Map.of();
        }
        Fetched<Map<String, Suspension>> suspensions = Fetched.of("suspensions",
                () -> leases.controls().suspensions(names));
        if (suspensions.failed()) {
            errors.add(suspensions.error());
        }
        return suspensions.value().orElse(Map.of());
    }

    private static JobView view(JobSpec spec, Instant now, Map<String, HolderView> holders, Optional<RoundView> last,
            List<RoundView> strip, Map<String, Suspension> suspended) {
        List<Instant> next = new ArrayList<>();
        if (spec.enabled()) {
            Instant cursor = now;
            for (int i = 0; i < NEXT_INSTANTS; i++) {
                Optional<Instant> n = spec.schedule().nextInstant(cursor);
                if (n.isEmpty()) {
                    break;
                }
                next.add(n.get());
                cursor = n.get();
            }
        }
        return new JobView(spec, List.copyOf(next), Optional.ofNullable(holders.get(spec.leaseName())),
                last, List.copyOf(strip), Optional.ofNullable(suspended.get(spec.leaseName())));
    }

    private static List<String> sorted(List<String> values) {
        return values == null ? List.of() : values.stream().sorted().toList();
    }
}
