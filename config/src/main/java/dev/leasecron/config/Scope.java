package dev.leasecron.config;

/** Where a job's rounds run. */
public enum Scope {
    /** Each instant runs once across all replicas, under a lease (the default). */
    CLUSTER("cluster"),
    /** Each instant runs on every replica, without a lease. */
    REPLICA("replica");

    private final String yamlName;

    Scope(String yamlName) {
        this.yamlName = yamlName;
    }

    /** How the value is written in the jobs file. */
    public String yamlName() {
        return yamlName;
    }
}
