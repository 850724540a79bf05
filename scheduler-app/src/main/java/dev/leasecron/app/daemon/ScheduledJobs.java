package dev.leasecron.app.daemon;

import dev.leasecron.app.plugins.JobRegistry;
import dev.leasecron.app.scheduler.ScheduledJob;
import dev.leasecron.config.CatchUp;
import dev.leasecron.config.JobSpec;
import dev.leasecron.config.JobsConfig;
import dev.leasecron.config.Scope;
import java.util.List;

/** The enabled jobs of a validated config, joined with their plugins. */
final class ScheduledJobs {
    private ScheduledJobs() {}

    /**
     * @throws IllegalArgumentException a job names a type no plugin provides; the config loader's
     *     type check refuses that first, so this means the check was skipped
     */
    static List<ScheduledJob> of(JobsConfig config, JobRegistry registry) {
        return config.jobs().stream().filter(JobSpec::enabled).map(spec -> of(spec, registry)).toList();
    }

    private static ScheduledJob of(JobSpec spec, JobRegistry registry) {
        return new ScheduledJob(spec.name(), spec.leaseName(), new ScheduleInstants(spec.schedule()), spec.type(),
                registry.get(spec.type()), spec.params(), spec.timeout(), spec.catchUp() == CatchUp.LATEST,
                spec.scope() == Scope.CLUSTER);
    }
}
