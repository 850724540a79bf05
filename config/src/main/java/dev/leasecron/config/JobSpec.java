package dev.leasecron.config;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One validated job of the jobs file. Printing it masks secret params (see {@link #maskedParams()}).
 *
 * @param name unique in the file; {@link #leaseName()} fits the lease table
 * @param schedule when its rounds are due, in its time zone (default UTC)
 * @param type the plugin type that runs it, e.g. {@code shell}; checked against the loaded plugins
 *     only when the loader was given a {@link JobTypeChecker} that knows them
 * @param catchUp what to do at start about a missed instant (default {@link CatchUp#LATEST})
 * @param timeout how long a round may run before it is cut short (default 1 h, always positive)
 * @param enabled false keeps the job in the file without running it (default true)
 * @param scope once per cluster, or on every replica (default {@link Scope#CLUSTER})
 * @param params the plugin's settings as YAML typed them: String, Long or BigInteger, Double,
 *     Boolean, null, List and Map (unmodifiable, in file order). An interpolated value is always a
 *     String.
 */
public record JobSpec(
        String name,
        Schedule schedule,
        String type,
        CatchUp catchUp,
        Duration timeout,
        boolean enabled,
        Scope scope,
        Map<String, Object> params) {

    /** The prefix the scheduler puts before a job name to make its lease name. */
    public static final String LEASE_PREFIX = "cron:";

    /** The timeout when none is given. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofHours(1);

    public JobSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(catchUp, "catchUp");
        Objects.requireNonNull(scope, "scope");
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
    }

    /** The name the job's lease is held under: the one place job names become lease names. */
    public String leaseName() {
        return LEASE_PREFIX + name;
    }

    /** The zone the schedule is read in. */
    public ZoneId timeZone() {
        return schedule.zone();
    }

    /** {@link #params()} fit for printing: every value under a secret-looking key is masked. */
    public Map<String, Object> maskedParams() {
        return SecretMasking.mask(params);
    }

    @Override
    public String toString() {
        return "JobSpec[name=" + name + ", schedule=" + schedule + ", type=" + type + ", catchUp=" + catchUp.yamlName()
                + ", timeout=" + timeout + ", enabled=" + enabled + ", scope=" + scope.yamlName() + ", params="
                + maskedParams() + "]";
    }
}
