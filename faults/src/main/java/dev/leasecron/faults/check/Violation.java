package dev.leasecron.faults.check;

/**
 * A broken promise the checker found.
 *
 * @param invariant which promise: {@code term-order}, {@code accounting} or {@code step-down}
 * @param detail what was seen, with the job, instant and term to look up
 */
public record Violation(String invariant, String detail) {
    @Override
    public String toString() {
        return invariant + ": " + detail;
    }
}
