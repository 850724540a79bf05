package dev.leasecron.app.web;

import java.util.List;

/**
 * A replica sharing the jobs, as the lease rows tell it.
 *
 * @param instance its name in the lease rows
 * @param self whether it is the replica serving this page
 * @param claimingLately whether it claimed an instant of the jobs within the census window
 * @param won the jobs whose last claimed instant it won (their lease rows name it)
 * @param holds the jobs whose leases it holds now, by the database clock
 * @param running the jobs it runs a round of now
 */
public record ReplicaView(String instance, boolean self, boolean claimingLately, List<String> won,
        List<String> holds, List<String> running) {

    public List<String> wonPaths() {
        return won.stream().map(Texts::jobPath).toList();
    }

    /** Whether it holds {@code job}'s lease now. */
    public boolean holdsNow(String job) {
        return holds.contains(job);
    }
}
