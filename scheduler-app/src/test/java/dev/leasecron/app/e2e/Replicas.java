package dev.leasecron.app.e2e;

import dev.leasecron.lease.testing.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.TestAbortedException;

/**
 * The replicas of one test, as a JUnit extension ({@code @RegisterExtension}): each test gets a
 * folder of its own under {@code target/e2e/} (jobs file, job output, one log per replica), a
 * failed test prints the tail of every replica's log, and every replica is killed after the test,
 * whatever happened.
 */
final class Replicas implements BeforeEachCallback, AfterTestExecutionCallback, AfterEachCallback {
    /** Protocol timings scaled down (lease, renew, local deadline, step-down grace in ms): a lease expires 3 s after its holder dies. */
    static final String FAST_TIMINGS = "3000,200,2000,500";

    private final List<ReplicaProcess> started = new ArrayList<>();
    private Path dir;

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        String test = context.getRequiredTestClass().getSimpleName() + "/" + context.getRequiredTestMethod().getName()
                + "-" + context.getDisplayName().replaceAll("[^A-Za-z0-9_.-]+", "_");
        dir = ReplicaProcess.moduleDir().resolve("target/e2e").resolve(test);
        if (Files.exists(dir)) {
            try (var old = Files.walk(dir)) {
                old.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(dir);
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        // A test skipped for want of its database server is not a failure: nothing to report.
        if (context.getExecutionException().filter(e -> !(e instanceof TestAbortedException)).isPresent()) {
            StringBuilder report = new StringBuilder("===== " + context.getDisplayName() + " failed; files in " + dir + "\n");
            started.forEach(r -> report.append(r.tail(60)));
            System.out.println(report);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        started.forEach(ReplicaProcess::close);
        started.clear();
    }

    /** This test's folder. */
    Path dir() {
        return dir;
    }

    /** A job name no other test (nor an earlier run of this one) uses: the lease table is shared. */
    static String uniqueJob(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * Writes {@code jobs.yaml} into the test's folder: the database from the replica's environment
     * ({@code DB_URL}, {@code DB_USER}, {@code DB_PASSWORD}), the instance and port from
     * {@code REPLICA} and {@code PORT}, the given shutdown grace, then {@code jobs}, the YAML of the
     * {@code jobs:} list.
     */
    Path jobsFile(String shutdownGrace, String jobs) {
        String yaml = """
                database:
                  url: "${DB_URL}"
                  username: "${DB_USER:-}"
                  password: "${DB_PASSWORD:-}"
                instance: e2e-${REPLICA}
                http:
                  port: ${PORT}
                shutdownGrace: %s
                jobs:
                %s""".formatted(shutdownGrace, jobs.indent(2));
        return write("jobs.yaml", yaml);
    }

    Path write(String name, String text) {
        try {
            return Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts a replica named {@code name} on {@code db}: {@code [wrapper...] java -jar leasecron.jar
     * run --config CONFIG --log-format json extraArgs...}, in the test's folder, with {@code REPLICA},
     * {@code PORT} and the database in its environment besides {@code env}.
     */
    ReplicaProcess start(String name, TestDatabase db, Path config, Map<String, String> env, List<String> wrapper,
            String... extraArgs) {
        Map<String, String> all = new HashMap<>();
        if (db != null) {
            all.put("DB_URL", db.url());
            all.put("DB_USER", db.user() == null ? "" : db.user());
            all.put("DB_PASSWORD", db.password() == null ? "" : db.password());
        }
        all.put("REPLICA", name);
        all.put("PORT", Integer.toString(ReplicaProcess.freePort()));
        all.putAll(env);
        List<String> args = new ArrayList<>(List.of("run", "--config", config.toString(), "--log-format", "json"));
        args.addAll(List.of(extraArgs));
        return startCommand(name, all, wrapper, args);
    }

    /** {@code [wrapper...] java -jar leasecron.jar args...} in the test's folder, with the test's environment plus {@code env}. */
    ReplicaProcess startCommand(String name, Map<String, String> env, List<String> wrapper, List<String> args) {
        ReplicaProcess replica = ReplicaProcess.start(name, dir, dir, env, wrapper, args);
        started.add(replica);
        return replica;
    }

    /** The same with no wrapper command. */
    ReplicaProcess start(String name, TestDatabase db, Path config, String... extraArgs) {
        return start(name, db, config, Map.of(), List.of(), extraArgs);
    }

    /** Every line of a file the jobs wrote into the test's folder. */
    List<String> lines(String file) {
        return ReplicaProcess.readLines(dir.resolve(file));
    }
}
