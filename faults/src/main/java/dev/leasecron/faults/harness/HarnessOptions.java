package dev.leasecron.faults.harness;

import java.nio.file.Path;
import java.util.List;

/**
 * The harness's command line: {@code --seeds N --first-seed S --db
 * postgres|mariadb|both|postgres-sync|postgres-async --seconds S --replicas N --jar JAR --work DIR
 * --keep}. {@code postgres-sync} and {@code postgres-async} are a primary with a streaming standby
 * ({@link ReplicatedPostgres}), whose plans fail over once.
 *
 * @param phaseSeconds how long each seed's fault schedule runs
 * @param keepRuns keep every run's folder and database, not only those of failed runs
 */
record HarnessOptions(int seeds, long firstSeed, List<String> dbs, int phaseSeconds, int replicas, Path jar, Path workDir,
        Path java, boolean keepRuns) {

    static final String USAGE = "usage: faults [--seeds N] [--first-seed S]"
            + " [--db postgres|mariadb|both|postgres-sync|postgres-async] [--seconds S]"
            + " [--replicas N] [--jar leasecron.jar] [--work DIR] [--keep]";

    static HarnessOptions parse(String... args) {
        int seeds = 3;
        long firstSeed = 1;
        List<String> dbs = List.of("postgres", "mariadb");
        int seconds = 30;
        int replicas = 3;
        Path jar = Path.of("scheduler-app/target/leasecron.jar");
        Path work = Path.of("faults/target/runs");
        boolean keep = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--seeds" -> seeds = Integer.parseInt(value(args, ++i, a));
                case "--first-seed", "--seed" -> firstSeed = Long.parseLong(value(args, ++i, a));
                case "--db" -> {
                    String db = value(args, ++i, a);
                    dbs = switch (db) {
                        case "both" -> List.of("postgres", "mariadb");
                        case "postgres", "mariadb", "postgres-sync", "postgres-async" -> List.of(db);
                        default -> throw new IllegalArgumentException("--db takes postgres, mariadb, both,"
                                + " postgres-sync or postgres-async, not " + db);
                    };
                }
                case "--seconds" -> seconds = Integer.parseInt(value(args, ++i, a));
                case "--replicas" -> replicas = Integer.parseInt(value(args, ++i, a));
                case "--jar" -> jar = Path.of(value(args, ++i, a));
                case "--work" -> work = Path.of(value(args, ++i, a));
                case "--keep" -> keep = true;
                default -> throw new IllegalArgumentException("unknown option " + a + "\n" + USAGE);
            }
        }
        if (seeds < 1 || seconds < 5 || replicas < 2) {
            throw new IllegalArgumentException("--seeds must be at least 1, --seconds at least 5, --replicas at least 2");
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new HarnessOptions(seeds, firstSeed, dbs, seconds, replicas, jar.toAbsolutePath(), work.toAbsolutePath(),
                java, keep);
    }

    /**
     * PostgreSQL and MariaDB get ports of their own, so the two can run side by side; a replicated pair
     * listens on this port and the next, the same for both kinds of replication.
     */
    int serverPort(String db) {
        return switch (db) {
            case "postgres" -> 55442;
            case "mariadb" -> 33316;
            default -> 55472;
        };
    }

    int httpPort(String db, int replica) {
        return switch (db) {
            case "postgres" -> 18440;
            case "mariadb" -> 18470;
            default -> 18500;
        } + replica;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return args[i];
    }
}
