package dev.leasecron.app.control;

/** An action named a job the config does not have. */
public final class UnknownJobException extends RuntimeException {
    public UnknownJobException(String job) {
        super("no job named '" + job + "' in the config");
    }
}
