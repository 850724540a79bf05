package dev.leasecron.app.web;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * A read of the database for a page: its value, or why there is none (the message shown in its
 * place). A read that fails never fails the page.
 */
public record Fetched<T>(Optional<T> value, String error) {

    /** The value {@code read} returns, or its failure as a message starting with {@code what}. */
    static <T> Fetched<T> of(String what, Supplier<T> read) {
        try {
            return new Fetched<>(Optional.of(read.get()), "");
        } catch (RuntimeException e) {
            return new Fetched<>(Optional.empty(), what + " not available: " + message(e));
        }
    }

    public boolean failed() {
        return value.isEmpty();
    }

    private static String message(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
