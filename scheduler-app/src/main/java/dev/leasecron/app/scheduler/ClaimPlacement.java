package dev.leasecron.app.scheduler;

import java.util.concurrent.ThreadLocalRandom;

/**
 * When this replica sends its claim of a job's next instant: at the instant, or put off until shortly
 * after ({@link SchedulerSettings#putOff()}). A pure function of how the job's last claim went, how
 * many jobs this replica claims and won last, and how many replicas share them, so that it can be
 * reasoned about and simulated apart from the database. An instance keeps the tally it decides by;
 * its owner (the {@link Dispatcher}) guards it.
 *
 * <p>The replica that won a job's last instant claims the next one at the instant; the others put
 * theirs off. An instant's claims then do not meet on the same rows, each replica's statement queueing
 * on the rows another holds while all of them start rounds on the same cores. A replica short of an
 * even share still contests some jobs it lost, with odds that make it contest about as many per
 * instant as it is short: a replica started after the others gets its share instead of the first one
 * up keeping every job, and once the jobs are spread no claim contests one. When a replica stops, the
 * others claim its jobs that much later. Which replica wins stays the claim's to decide: a claim put
 * off only comes second.
 */
final class ClaimPlacement {
    /** Of the jobs this replica claims, those whose last claim was answered, and those won. */
    private int known;
    private int held;

    /**
     * Records how the last claim of {@code s}'s job went: NONE once the job no longer runs here. An
     * answer that comes for a job stopped meanwhile counts no more.
     */
    void record(JobState s, JobState.LastClaim now) {
        if (s.stopped && now != JobState.LastClaim.NONE) {
            return;
        }
        known += (now != JobState.LastClaim.NONE ? 1 : 0) - (s.lastClaim != JobState.LastClaim.NONE ? 1 : 0);
        held += (now == JobState.LastClaim.WON ? 1 : 0) - (s.lastClaim == JobState.LastClaim.WON ? 1 : 0);
        s.lastClaim = now;
    }

    /**
     * Whether the claim of the next instant of a job whose claim was just refused is put off, by the
     * jobs recorded.
     *
     * @param replicas the replicas sharing the jobs as last counted, this one included
     */
    /** The jobs whose last claim was answered, and of those the ones won: for tests. */
    int[] tally() {
        return new int[] {known, held};
    }

    boolean putOff(int replicas) {
        return putOff(true, known, held, replicas, ThreadLocalRandom.current().nextDouble());
    }

    /**
     * Whether the claim of a job's next instant is put off.
     *
     * @param refusedLast whether this replica's last claim of the job was refused (false: won, or no
     *     claim yet)
     * @param names the jobs whose last claim this replica knows the answer of
     * @param held those whose last claim it won
     * @param replicas the replicas sharing them as last counted, this one included
     * @param draw a number drawn uniformly from [0, 1)
     */
    static boolean putOff(boolean refusedLast, int names, int held, int replicas, double draw) {
        return refusedLast && draw >= contestOdds(names, held, replicas);
    }

    /**
     * The odds, 0 to 1, that a claim refused at a job's last instant contests the next one at the
     * instant.
     */
    static double contestOdds(int names, int held, int replicas) {
        int refused = names - held;
        // A refusal is another replica's claim, counted or not yet.
        int sharing = refused > 0 ? Math.max(replicas, 2) : replicas;
        double shortfall = (double) names / sharing - held;
        // Under one job short is an even share already: jobs do not split.
        if (shortfall < 1 || refused <= 0) {
            return 0;
        }
        return Math.min(1, shortfall / refused);
    }
}
