package dev.leasecron.examples.hello;

import dev.leasecron.jobs.Job;
import dev.leasecron.jobs.JobContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The job type {@code hello}: each round logs a greeting with the job's name, the instant it runs
 * for and its lease term.
 *
 * <p>Params: {@code greeting}, a string, "hello" when absent.
 */
public final class HelloJob implements Job {
    private static final String GREETING = "greeting";

    @Override
    public String type() {
        return "hello";
    }

    @Override
    public List<String> checkParams(Map<String, Object> params) {
        List<String> problems = new ArrayList<>();
        Object greeting = params.get(GREETING);
        if (greeting != null && !(greeting instanceof String)) {
            problems.add("params.greeting: must be a string");
        }
        for (String key : params.keySet()) {
            if (!key.equals(GREETING)) {
                problems.add("params." + key + ": unknown key; known keys: " + GREETING);
            }
        }
        return problems;
    }

    @Override
    public void run(JobContext context) {
        Object greeting = context.params().getOrDefault(GREETING, "hello");
        context.log().info("{} from {}: instant={} term={}{}", greeting, context.jobName(), context.instant(),
                context.term(), context.rerun() ? " (rerun)" : "");
    }
}
