package dev.leasecron.app.ops;

/**
 * The answer of a {@link HealthCheck}.
 *
 * @param passed whether the check passed
 * @param reason why it did not, in a few words for the probe's response; empty when up
 */
public record Health(boolean passed, String reason) {
    private static final Health UP = new Health(true, "");

    public Health {
        if (reason == null || (!passed && reason.isBlank())) {
            throw new IllegalArgumentException("a failed check needs a reason");
        }
    }

    public static Health up() {
        return UP;
    }

    public static Health down(String reason) {
        return new Health(false, reason);
    }
}
