package dev.leasecron.config;

/** What a job does at start about instants that passed while no replica ran it. */
public enum CatchUp {
    /** Run the most recent missed instant, if it is within 24 hours (the default). */
    LATEST("latest"),
    /** Run nothing missed; wait for the next instant. */
    NONE("none");

    private final String yamlName;

    CatchUp(String yamlName) {
        this.yamlName = yamlName;
    }

    /** How the value is written in the jobs file. */
    public String yamlName() {
        return yamlName;
    }
}
