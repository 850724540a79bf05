package dev.leasecron.app.scheduler;

/**
 * How often a claim refused at its job's last instant still contests the next one at the instant,
 * instead of going out after the claims of the replica that won it: so that a replica short of an
 * even share of its jobs makes, per instant, about as many contests as it is short, and a replica at
 * or above its share makes none. Once the jobs are spread, each stays with the replica that has it,
 * and the claims replicas send at an instant do not meet on the same rows.
 */
final class EvenShare {
    private EvenShare() {}

    /**
     * @param names the jobs this replica claims
     * @param held those whose last claim it won
     * @param replicas the replicas sharing them as last counted, this one included
     * @return the odds, 0 to 1, that one claim refused moves on contesting
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
