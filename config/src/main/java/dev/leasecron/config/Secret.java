package dev.leasecron.config;

import java.util.Objects;

/**
 * A value that must never be printed: a database password, the HTTP admin token. {@link #toString()}
 * masks it, so a secret can sit in any record and be logged with it; only {@link #reveal()} gives the
 * value, and only the code that connects or checks a request should call it.
 */
public final class Secret {
    private static final Secret NONE = new Secret("");

    /** What every secret prints as. */
    public static final String MASK = "******";

    private final String value;

    private Secret(String value) {
        this.value = value;
    }

    /** A secret holding {@code value}; an empty value is the same as {@link #none()}. */
    public static Secret of(String value) {
        return value == null || value.isEmpty() ? NONE : new Secret(value);
    }

    /** No secret (no password configured). */
    public static Secret none() {
        return NONE;
    }

    /** The value itself, for handing to the driver. */
    public String reveal() {
        return value;
    }

    public boolean isEmpty() {
        return value.isEmpty();
    }

    @Override
    public String toString() {
        return isEmpty() ? "(none)" : MASK;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Secret secret && secret.value.equals(value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(value);
    }
}
