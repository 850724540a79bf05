package dev.leasecron.faults.harness;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault harness: for each database kind asked for, starts a server of its own, then runs each
 * seed (replicas, faults, checker) and prints the summary. Exits 1 when any run broke a promise,
 * printing how to replay each failing seed; 2 on wrong usage.
 */
public final class FaultsMain {
    private FaultsMain() {}

    public static void main(String[] args) throws Exception {
        HarnessOptions options;
        try {
            options = HarnessOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        List<RunResult> results = new ArrayList<>();
        for (String db : options.dbs()) {
            results.addAll(runAll(options, db));
        }
        Summary.print(results, System.out);
        List<RunResult> failed = results.stream().filter(r -> !r.verdict().ok()).toList();
        for (RunResult r : failed) {
            System.out.println("replay: scripts/faults.sh --db " + r.db() + " --seed " + r.seed() + " --seeds 1 --seconds "
                    + options.phaseSeconds() + "   (logs kept in " + r.runDir() + ")");
        }
        System.exit(failed.isEmpty() ? 0 : 1);
    }

    private static List<RunResult> runAll(HarnessOptions options, String db)
            throws IOException, InterruptedException, SQLException {
        List<RunResult> results = new ArrayList<>();
        int port = options.serverPort(db);
        try (DatabaseServer server = switch (db) {
                    case "postgres" -> new PostgresServer(options.workDir(), port);
                    case "postgres-sync" -> new ReplicatedPostgres(options.workDir(), port, port + 1,
                            ReplicatedPostgres.Replication.SYNC);
                    case "postgres-async" -> new ReplicatedPostgres(options.workDir(), port, port + 1,
                            ReplicatedPostgres.Replication.ASYNC);
                    default -> new MariaDbServer(options.workDir(), port);
                }) {
            // A harness stopped by a signal stops its server too: nobody else would.
            Thread onExit = new Thread(() -> {
                try {
                    server.close();
                } catch (Exception e) {
                    System.err.println("could not stop the " + db + " server: " + e);
                }
            });
            Runtime.getRuntime().addShutdownHook(onExit);
            server.start();
            for (long seed = options.firstSeed(); seed < options.firstSeed() + options.seeds(); seed++) {
                long started = System.nanoTime();
                if (server instanceof ReplicatedPostgres pair && !pair.hasStandby()) {
                    pair.close(); // a new pair for each seed: the last one failed over
                    pair.start();
                }
                RunResult r = new SeedRun(options, server, seed).run();
                results.add(r);
                System.out.printf("%s seed %d: %d faults %s, %d rounds, %s, %d violation(s)%s in %d s%n", db, seed,
                        r.injected().values().stream().mapToInt(Integer::intValue).sum(), r.injected(),
                        r.verdict().rounds(), r.verdict().accounted(), r.verdict().violations().size(),
                        r.failoverResumeMs() < 0 ? "" : ", rounds resumed " + r.failoverResumeMs()
                                + " ms after the promotion",
                        (System.nanoTime() - started) / 1_000_000_000L);
                r.verdict().violations().forEach(v -> System.out.println("  " + v));
            }
            Runtime.getRuntime().removeShutdownHook(onExit);
        }
        return results;
    }
}
