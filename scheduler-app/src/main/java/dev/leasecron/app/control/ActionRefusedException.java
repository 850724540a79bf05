package dev.leasecron.app.control;

/**
 * An action named a job of the config that it cannot act on (a job of {@code scope: replica} has no
 * cluster-wide run, a disabled job runs nowhere): the message says why, for the operator to read.
 */
public final class ActionRefusedException extends RuntimeException {
    public ActionRefusedException(String message) {
        super(message);
    }
}
