package dev.leasecron.faults.check;

/**
 * A broken promise the checker found.
 *
 * @param invariant which promise: {@code term-order}, {@code accounting}, {@code duplicate} (an
 *     instant of a job that ran more often than once plus one rerun of a round cut short) or
 *     {@code step-down}
 * @param detail what was seen, with the job, instant and term to look up
 */
public record Violation(String invariant, String detail) {
    public static final String DUPLICATE = "duplicate";

    public boolean duplicate() {
        return invariant.equals(DUPLICATE);
    }

    @Override
    public String toString() {
        return invariant + ": " + detail;
    }
}
